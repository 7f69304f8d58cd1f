import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Migrated and seeded databases made once per test run, which every test app clones instead of
 * migrating and seeding from nothing: a data directory (the SQLite file, the licence keys, the
 * secret key) copied per app, and on PostgreSQL a template database that `CREATE DATABASE ...
 * TEMPLATE` copies per app. What the seed does is still tested on a fresh database
 * (createTestApp's `fresh` option).
 */
export interface DatabaseTemplate {
  /** The data directory to copy. */
  dataDir: string;
  /** PostgreSQL: the template database's name (absent on SQLite). */
  pgDatabase?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated, seeded database every test app of this project clones (globalSetup.ts). */
    databaseTemplate: DatabaseTemplate;
  }
}

export const TEMPLATE_ADMIN_PASSWORD = 'Adm1n-secret!';

/** `url` with its database replaced by `name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function onServer<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/**
 * Makes a template in a process of its own (`node --import tsx`): vitest's global set-up loads
 * modules through its own runner, which reads some of the server's CommonJS dependencies
 * differently from Node.
 */
export function makeTemplateInChild(pgUrl?: string): DatabaseTemplate {
  const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, ...(pgUrl ? [pgUrl] : [])], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as DatabaseTemplate;
}

/** Migrates and seeds a template; on PostgreSQL (`pgUrl`) in a database of its own. */
export async function makeTemplate(pgUrl?: string): Promise<DatabaseTemplate> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-template-'));
  const pgDatabase = pgUrl ? `gh_tpl_${randomBytes(6).toString('hex')}` : undefined;
  if (pgUrl) await onServer(pgUrl, (c) => c.query(`CREATE DATABASE ${pgDatabase}`));
  const { loadConfig } = await import('../src/platform/config.ts');
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: pgUrl ? withDatabase(pgUrl, pgDatabase!) : `sqlite:${path.join(dataDir, 'gatehouse.sqlite')}`,
    GATEHOUSE_ADMIN_PASSWORD: TEMPLATE_ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    GATEHOUSE_SSH_PORT: '0',
  });
  const { openDeps } = await import('../src/app.ts');
  const deps = await openDeps(config);
  await deps.close();
  return { dataDir, ...(pgDatabase ? { pgDatabase } : {}) };
}

export async function dropTemplate(template: DatabaseTemplate, pgUrl?: string): Promise<void> {
  fs.rmSync(template.dataDir, { recursive: true, force: true });
  if (pgUrl && template.pgDatabase)
    await onServer(pgUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${template.pgDatabase} WITH (FORCE)`));
}

/** A database of its own for one test app, copied from the template; `drop` removes it. */
export async function cloneTemplate(
  template: DatabaseTemplate,
  dataDir: string,
  pgUrl?: string,
): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  fs.cpSync(template.dataDir, dataDir, { recursive: true });
  if (!pgUrl || !template.pgDatabase)
    return { databaseUrl: `sqlite:${path.join(dataDir, 'gatehouse.sqlite')}`, drop: async () => undefined };
  const name = `gh_test_${randomBytes(6).toString('hex')}`;
  await onServer(pgUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template.pgDatabase}`));
  return {
    databaseUrl: withDatabase(pgUrl, name),
    drop: () => onServer(pgUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

if (process.argv[1] === import.meta.filename) {
  await import('./setup.ts');
  process.stdout.write(`${JSON.stringify(await makeTemplate(process.argv[2]))}\n`);
}
