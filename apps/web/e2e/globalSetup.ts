import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/** Builds the console once, starts one shared server, and stops it after the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.GATEHOUSE_E2E_SKIP_BUILD !== '1') {
    const web = path.resolve(import.meta.dirname, '..');
    const r = spawnSync(path.resolve(web, '../../node_modules/.bin/vite'), ['build', '--logLevel', 'error'], { cwd: web, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const server = await startServer();
  project.provide('baseURL', server.url);
  return () => server.stop();
}
