import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './platform/config.ts';
import { buildApp, openDeps } from './app.ts';
import { ADMIN_PASSWORD_FILE } from './modules/bootstrap/seed.ts';
import { openDatabase } from './platform/db/database.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { licenceCli } from './modules/xpack/licenceCli.ts';

/** Gatehouse's one entry: `start` (default) or `migrate`. Start-up problems print one line and exit non-zero. */

function die(message: string): never {
  process.stderr.write(`gatehouse: ${message}\n`);
  process.exit(2);
}

async function start(config: Config): Promise<void> {
  const deps = await openDeps(config);
  if (deps.seedResult.generatedAdminPassword) {
    const file = path.join(config.dataDir, ADMIN_PASSWORD_FILE);
    process.stdout.write(
      `\n  First start: created user "admin" with password  ${deps.seedResult.generatedAdminPassword}\n` +
        `  (also saved, readable by you only, in ${file}; you will be asked to change it at first login)\n\n`,
    );
  }
  const app = await buildApp(deps);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    await app.close().catch(() => undefined);
    await deps.close();
    if ((e as { setting?: string }).setting) die((e as Error).message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      die(`PORT: ${config.port} is already in use on ${config.host}; stop the other program or set PORT`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') die(`HOST: ${config.host} is not an address of this machine`);
    if (code === 'EACCES') die(`PORT: not allowed to listen on ${config.port}; use a port above 1023`);
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(`Gatehouse is serving on http://${config.host}:${port}/\n`);
  const stop = async () => {
    await app.close();
    await deps.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function migrate(config: Config): Promise<void> {
  const database = await openDatabase(config.databaseUrl).catch((e: Error) => die(`DATABASE_URL: ${e.message}`));
  const applied = await migrateToLatest(database.db);
  process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  await database.close();
}

async function main(): Promise<void> {
  const command = process.argv[2] ?? 'start';
  if (command === 'licence' || command === 'license') {
    try {
      process.exit(licenceCli(process.argv.slice(3), (s) => process.stdout.write(s)));
    } catch (e) {
      die((e as Error).message);
    }
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) die(e.message);
    throw e;
  }
  if (command === 'start') return start(config);
  if (command === 'migrate') return migrate(config);
  die(`unknown command "${command}"; use start, migrate or licence`);
}

main().catch((e: Error & { setting?: string }) => {
  if (e.setting) die(e.message);
  die(`could not start: ${e.message}`);
});
