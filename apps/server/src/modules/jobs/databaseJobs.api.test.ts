import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makePerm, type Row } from '../../../test-support/perms.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS } from '../../../test-support/sshAsset.ts';
import { startShellSshd, SHELL_USER, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * The database modules against the machine's real MariaDB (127.0.0.1:3306) and PostgreSQL
 * (127.0.0.1:5432): a throwaway user and database on each, signed in to with the vault's password,
 * one MariaDB asset reached through a domain gateway (a real sshd as the jump host), the rows of
 * each statement in the record, and SQL Server refused for want of a client.
 */
const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root' };
const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/test';
const id = randomBytes(4).toString('hex');
const DB_USER = { username: `ghjob_${id}`, password: `Job-${id}-pw` };
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
const a: Record<string, Row> = {};

beforeAll(async () => {
  const root = await mysql.createConnection(MARIADB);
  await root.query(`CREATE DATABASE ghjob_${id}`);
  await root.query(`CREATE USER '${DB_USER.username}'@'%' IDENTIFIED BY '${DB_USER.password}'`);
  await root.query(`GRANT ALL ON ghjob_${id}.* TO '${DB_USER.username}'@'%'`);
  await root.query(`CREATE TABLE ghjob_${id}.written (x int)`);
  await root.end();
  const pgc = new pg.Client(PG_ADMIN);
  await pgc.connect();
  await pgc.query(`CREATE ROLE ${DB_USER.username} LOGIN PASSWORD '${DB_USER.password}'`);
  await pgc.query(`CREATE DATABASE ghjob_${id} OWNER ${DB_USER.username}`);
  await pgc.end();
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  const post = apiPost(admin);
  const database = (name: string, platform: string, protocol: string, port: number, extra = {}) =>
    post('/api/v1/assets/databases/', {
      name,
      address: '127.0.0.1',
      platform,
      db_name: `ghjob_${id}`,
      protocols: [{ name: protocol, port }],
      ...extra,
    });
  const domain = (await admin.post('/api/v1/assets/domains/', { name: `dbjob-dmz-${id}` })).json();
  const gw = await post('/api/v1/assets/gateways/', {
    name: `dbjob-jump-${id}`,
    address: '127.0.0.1',
    platform: 'Gateway',
    domain: domain.id,
    protocols: [{ name: 'ssh', port: sshd.port }],
  });
  await post(ACCOUNTS, { asset: gw.id, username: SHELL_USER.username, secret: SHELL_USER.password, privileged: true });
  a.maria = await database('dbjob-maria', 'MariaDB', 'mariadb', 3306);
  a.behind = await database('dbjob-behind', 'MariaDB', 'mariadb', 3306, { domain: domain.id });
  a.pg = await database('dbjob-pg', 'PostgreSQL', 'postgresql', 5432);
  a.pgBehind = await database('dbjob-pg-behind', 'PostgreSQL', 'postgresql', 5432, { domain: domain.id });
  a.gw = gw;
  a.mssql = await database('dbjob-mssql', 'SQLServer', 'sqlserver', 1433);
  for (const x of Object.values(a))
    await post(ACCOUNTS, { asset: x.id, username: DB_USER.username, secret: DB_USER.password });
  const me = (await admin.get('/api/v1/users/profile/')).json();
  await makePerm(admin, {
    users: [me.id],
    assets: Object.values(a).map((x) => x.id),
    accounts: ['@ALL'],
    actions: ['connect'],
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  sshd?.stop();
  const root = await mysql.createConnection(MARIADB);
  await root.query(`DROP DATABASE IF EXISTS ghjob_${id}`);
  await root.query(`DROP USER IF EXISTS '${DB_USER.username}'@'%'`);
  await root.end();
  const pgc = new pg.Client(PG_ADMIN);
  await pgc.connect();
  await pgc.query(`DROP DATABASE IF EXISTS ghjob_${id} WITH (FORCE)`);
  await pgc.query(`DROP ROLE IF EXISTS ${DB_USER.username}`);
  await pgc.end();
});

async function run(module: string, args: string, assets: Row[]): Promise<Record<string, Row>> {
  const res = await admin.post('/api/v1/ops/jobs/', {
    name: `dbjob-${randomBytes(3).toString('hex')}`,
    module,
    args,
    assets: assets.map((x) => x.id),
    runas: DB_USER.username,
    runas_policy: 'skip',
    instant: true,
    is_periodic: false,
    timeout: 30,
    nodes: [],
  });
  expect(res.statusCode, res.body).toBe(201);
  const taskId = res.json().task_id as string;
  await expect
    .poll(async () => (await admin.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json().is_finished)
    .toBe(true);
  const rows = (await admin.get(`/api/v1/ops/job-execution/asset-detail/?execution_id=${taskId}`)).json() as Row[];
  return Object.fromEntries(rows.map((r) => [r.asset.name.split('(')[0], r]));
}

describe('database modules', () => {
  it('runs SQL on MariaDB, directly and through a domain gateway, with each statement’s rows in the record', async () => {
    const sql = [
      'select 6*7 as answer;',
      'create temporary table t (x int, note varchar(20));',
      "insert into t values (1, 'one'), (2, NULL);",
      'select x, note from t order by x;',
      'insert into written values (1);',
    ].join('\n');
    const rows = await run('mysql', sql, [a.maria!, a.behind!]);
    for (const name of ['dbjob-maria', 'dbjob-behind']) {
      expect(rows[name], JSON.stringify(rows[name])).toMatchObject({ status: 'ok' });
      expect(rows[name]!.output).toContain('answer\n42\n(1 rows)');
      expect(rows[name]!.output).toContain('(2 rows affected)');
      expect(rows[name]!.output).toContain('x\tnote\n1\tone\n2\tNULL\n(2 rows)\n(1 rows affected)');
    }
    // The run signed in with the vault's password: MariaDB holds what it wrote (once per asset, one database).
    const root = await mysql.createConnection({ ...MARIADB, database: `ghjob_${id}` });
    const [count] = await root.query('select count(*) as n from written');
    await root.end();
    expect((count as { n: number }[])[0]!.n).toBe(2);
  });

  it('runs SQL on PostgreSQL, and says which statement failed and why', async () => {
    const ok = await run('postgresql', 'select 6*7 as answer, current_user as who', [a.pg!, a.pgBehind!]);
    for (const name of ['dbjob-pg', 'dbjob-pg-behind']) {
      expect(ok[name], JSON.stringify(ok[name])).toMatchObject({ status: 'ok' });
      expect(ok[name]!.output).toContain(`answer\twho\n42\t${DB_USER.username}\n(1 rows)`);
    }
    // The tunnels went through the domain's gateway: its host key is on record.
    const keys = await t.deps.database.db.selectFrom('terminal_hostkey').select('asset_id').execute();
    expect(keys.map((k) => k.asset_id)).toContain(a.gw!.id);
    const bad = await run('postgresql', 'select * from no_such_table', [a.pg!]);
    expect(bad['dbjob-pg']).toMatchObject({ status: 'failed', reason: expect.stringContaining('no_such_table') });
  });

  it('refuses SQL Server for want of a client, and a module that does not fit the database', async () => {
    const rows = await run('sqlserver', 'select 1', [a.mssql!]);
    expect(rows['dbjob-mssql']).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('SQL Server client'),
    });
    const wrong = await run('postgresql', 'select 1', [a.maria!]);
    expect(wrong['dbjob-maria']!.reason).toContain('needs a PostgreSQL database');
  });
});
