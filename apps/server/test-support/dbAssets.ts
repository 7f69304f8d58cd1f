import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { ApiPost } from './sshAsset.ts';

/**
 * Throwaway databases on the machine's servers (PostgreSQL on 127.0.0.1:5432 with trust, MariaDB
 * on 127.0.0.1:3306 as root without a password), each with a user of its own and a table `t`
 * of three rows; their Gatehouse database assets and password accounts; and the real command-line
 * clients (`psql`, `mysql`) run with their password given only in the child's environment.
 */
const run = promisify(execFile);

export interface ScratchDb {
  name: string;
  user: string;
  password: string;
  drop(): Promise<void>;
}

const suffix = () => randomBytes(4).toString('hex');

export async function scratchPg(): Promise<ScratchDb> {
  const name = `gh_db_${suffix()}`;
  const password = `Pw-${suffix()}`;
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.connect();
  await admin.query(`CREATE ROLE ${name} LOGIN PASSWORD '${password}'`);
  await admin.query(`CREATE DATABASE ${name} OWNER ${name}`);
  await admin.end();
  const own = new pg.Client({ connectionString: `postgres://${name}@127.0.0.1:5432/${name}` });
  await own.connect();
  await own.query(`CREATE TABLE t (id int primary key, v text); INSERT INTO t VALUES (1,'a'),(2,'b'),(3,'c')`);
  await own.end();
  return {
    name,
    user: name,
    password,
    async drop() {
      const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${name}`);
      await c.end();
    },
  };
}

export async function scratchMysql(): Promise<ScratchDb> {
  const name = `gh_db_${suffix()}`;
  const password = `Pw-${suffix()}`;
  const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', multipleStatements: true });
  await root.query(
    `CREATE DATABASE ${name}; CREATE USER '${name}'@'127.0.0.1' IDENTIFIED BY '${password}';` +
      `GRANT ALL ON ${name}.* TO '${name}'@'127.0.0.1';` +
      `CREATE TABLE ${name}.t (id int primary key, v text); INSERT INTO ${name}.t VALUES (1,'a'),(2,'b'),(3,'c');`,
  );
  await root.end();
  return {
    name,
    user: name,
    password,
    async drop() {
      const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', multipleStatements: true });
      await c.query(`DROP DATABASE IF EXISTS ${name}; DROP USER IF EXISTS '${name}'@'127.0.0.1';`);
      await c.end();
    },
  };
}

/** A database asset on the scratch database, with its user's password account. */
export async function dbAsset(
  post: ApiPost,
  kind: 'postgresql' | 'mysql' | 'mariadb',
  db: ScratchDb,
  opts: { port?: number; address?: string; domain?: string } = {},
) {
  const platform = kind === 'postgresql' ? 'PostgreSQL' : kind === 'mysql' ? 'MySQL' : 'MariaDB';
  const port = opts.port ?? (kind === 'postgresql' ? 5432 : 3306);
  const asset = await post('/api/v1/assets/databases/', {
    name: `${kind}-${suffix()}`,
    address: opts.address ?? '127.0.0.1',
    platform,
    protocols: [{ name: kind, port }],
    db_name: db.name,
    ...(opts.domain ? { domain: opts.domain } : {}),
  });
  const account = await post('/api/v1/accounts/accounts/', {
    asset: asset.id,
    username: db.user,
    secret_type: 'password',
    secret: db.password,
  });
  return { asset, account };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runClient(cmd: string, args: string[], env: Record<string, string>, input?: string): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** `psql` through the proxy (or anywhere): `-c` statements, or a script on stdin. */
export function psql(
  port: number,
  user: string,
  password: string,
  sql: { c?: string[]; stdin?: string; db?: string; extra?: string[] },
) {
  const args = ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1'];
  if (sql.db) args.push('-d', sql.db);
  for (const c of sql.c ?? []) args.push('-c', c);
  args.push(...(sql.extra ?? []));
  return runClient('psql', args, { PGPASSWORD: password, PGCONNECT_TIMEOUT: '60' }, sql.stdin);
}

/** The MariaDB `mysql` client through the proxy: `-e` statements, or a script on stdin. */
export function mysqlClient(
  port: number,
  user: string,
  password: string,
  sql: { e?: string; stdin?: string; db?: string; extra?: string[] },
) {
  const args = ['-h', '127.0.0.1', '-P', String(port), '-u', user, '--batch', '--skip-column-names', '--protocol=TCP'];
  if (sql.db) args.push(sql.db);
  if (sql.e !== undefined) args.push('-e', sql.e);
  args.push(...(sql.extra ?? []));
  return runClient('mysql', args, { MYSQL_PWD: password }, sql.stdin);
}

export async function clientVersion(cmd: string): Promise<string> {
  return (await run(cmd, ['--version'])).stdout;
}
