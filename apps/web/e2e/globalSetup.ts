import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/**
 * Builds the console unless its current build exists (scripts/build-web.mjs, as `npm start` does),
 * starts one shared server, and stops it after the run. The servers serve that build's own folder,
 * so a build switched in meanwhile by another run does not change what they serve.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const script = path.resolve(import.meta.dirname, '../../../scripts/build-web.mjs');
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('the console build failed');
  process.env.GATEHOUSE_WEB_DIST = r.stdout.trim().split('\n').pop()!;
  const server = await startServer();
  project.provide('baseURL', server.url);
  return () => server.stop();
}
