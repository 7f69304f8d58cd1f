import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
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
  // Each run builds into its own directory, so parallel runs never serve each other's half-built files.
  const web = path.resolve(import.meta.dirname, '..');
  const outDir = path.resolve(web, `../../.tmp/e2e-dist-${process.pid}`);
  // Vitest sets NODE_ENV=test, which would give a development build of React and antd (every
  // generated element id is then "test-id"); the browser tests exercise the production build.
  const env = { ...process.env, NODE_ENV: 'production' };
  const r = spawnSync(
    path.resolve(web, '../../node_modules/.bin/vite'),
    ['build', '--logLevel', 'error', '--outDir', outDir],
    { cwd: web, stdio: 'inherit', env },
  );
  if (r.status !== 0) throw new Error('vite build failed');
  process.env.GATEHOUSE_WEB_DIST = outDir;
  const server = await startServer();
  project.provide('baseURL', server.url);
  return async () => {
    await server.stop();
    fs.rmSync(outDir, { recursive: true, force: true });
  };
}
