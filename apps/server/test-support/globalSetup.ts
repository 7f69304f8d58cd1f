import type { TestProject } from 'vitest/node';
import { dropTemplate, makeTemplateInChild, type DatabaseTemplate } from './templates.ts';

/** Templates by database, shared by the projects on it (a project and its `-isolated` twin). */
const made = new Map<string, { template: DatabaseTemplate; users: number }>();

/** Once per server project and run: the database template of the project's database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pgUrl = project.config.env?.GATEHOUSE_TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  const key = pgUrl ?? 'sqlite';
  const entry = made.get(key) ?? { template: makeTemplateInChild(pgUrl), users: 0 };
  entry.users++;
  made.set(key, entry);
  project.provide('databaseTemplate', entry.template);
  return async () => {
    if (--entry.users > 0) return;
    made.delete(key);
    await dropTemplate(entry.template, pgUrl);
  };
}
