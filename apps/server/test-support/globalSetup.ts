import type { TestProject } from 'vitest/node';
import { dropTemplate, makeTemplateInChild, type DatabaseTemplate } from './templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated, seeded database every test app of this project clones (templates.ts). */
    databaseTemplate: DatabaseTemplate;
  }
}

/** Once per server project and run: the database template of the project's database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pgUrl = project.config.env?.GATEHOUSE_TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  const template = makeTemplateInChild(pgUrl);
  project.provide('databaseTemplate', template);
  return () => dropTemplate(template, pgUrl);
}
