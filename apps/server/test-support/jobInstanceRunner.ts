import { buildApp, openDeps } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';

/**
 * A whole Gatehouse instance in a process of its own, for the test that kills one mid-execution
 * (jobEngine.redis.test.ts): the environment names the database, data folder and Redis of the
 * test's instance (GH_PG_SCHEMA its PostgreSQL schema), the instance starts its job engine and
 * prints `INSTANCE <engine id>`, then runs until it is killed. Run as `node --import tsx` (one
 * process: the `tsx` command would leave its child running after a SIGKILL).
 */
async function main(): Promise<void> {
  const env = process.env;
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', GATEHOUSE_SSH_PORT: '0' });
  const deps = await openDeps(config, env.GH_PG_SCHEMA ? { pgSchema: env.GH_PG_SCHEMA } : {});
  const app = await buildApp(deps);
  await app.ready();
  process.stdout.write(`INSTANCE ${app.jobEngine.instanceId}\n`);
  // Alive until killed, whatever the engine's own timers do.
  setInterval(() => undefined, 60_000);
}

void main();
