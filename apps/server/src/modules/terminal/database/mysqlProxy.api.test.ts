import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost } from '../../../../test-support/accounts.ts';
import { dbAsset, mysqlClient, scratchMysql, type ScratchDb } from '../../../../test-support/dbAssets.ts';
import { makePerm, makeUser, PASSWORD, type Row } from '../../../../test-support/perms.ts';
import { freePort } from '../../../../test-support/ports.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';

/**
 * The MySQL proxy against the machine's MariaDB with the real `mysql` client (MariaDB's) and
 * mysql2 for prepared statements: sign-in as `<user>@<account>@<asset>`, statements recorded
 * whole with their row counts and errors.
 */
let t: TestApp;
let admin: SessionClient;
let db: ScratchDb;
let port: number;
let asset: Row;
let account: Row;
let login: string;

beforeAll(async () => {
  db = await scratchMysql();
  port = await freePort();
  t = await createTestApp({ GATEHOUSE_MYSQL_PORT: String(port) });
  admin = await adminClient(t.app);
  ({ asset, account } = await dbAsset(apiPost(admin), 'mariadb', db));
  const dana = await makeUser(admin, 'dana');
  await makePerm(admin, { users: [dana.id], assets: [asset.id], accounts: ['@ALL'], actions: ['connect'] });
  login = `dana@${account.name}@${asset.name}`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

async function lastSession(): Promise<Row> {
  return (await admin.get('/api/v1/terminal/sessions/?protocol=mariadb&order=-date_start')).json()[0];
}

async function commandsOf(sessionId: string): Promise<Row[]> {
  return (await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json();
}

describe('MySQL proxy', () => {
  it('lets mysql in as user@account@asset and records each statement of a multi-statement text', async () => {
    const r = await mysqlClient(port, login, PASSWORD, {
      e: 'select v from t order by id; update t set v = v where id < 3',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['a', 'b', 'c']);
    await expect.poll(async () => (await lastSession())?.is_finished).toBe(true);
    const s = await lastSession();
    expect(s).toMatchObject({ protocol: 'mariadb', is_success: true });
    const cmds = await commandsOf(s.id);
    const inputs = cmds.map((c) => c.input);
    expect(inputs).toContain('select v from t order by id');
    expect(inputs).toContain('update t set v = v where id < 3');
    expect(cmds.find((c) => c.input.startsWith('select v'))!.output).toMatch(/^3 rows \(/);
    expect(cmds.find((c) => c.input.startsWith('update'))!.output).toMatch(/^OK, 0 rows affected/);
  });

  it('records prepared statements at each execution, and errors', async () => {
    // mysql2, like Oracle's own client, sends a password in clear only when told to.
    const c = await mysql.createConnection({
      ...{ host: '127.0.0.1', port, user: login, password: PASSWORD, database: db.name },
      enableCleartextPlugin: true,
    });
    const [rows] = await c.execute('select v from t where id = ?', [2]);
    expect(rows).toEqual([{ v: 'b' }]);
    await expect(c.query('select nope from t')).rejects.toThrow(/nope/);
    await c.end();
    await expect.poll(async () => (await lastSession())?.is_finished).toBe(true);
    const cmds = await commandsOf((await lastSession()).id);
    const run = cmds.find((x) => x.input === 'select v from t where id = ?');
    expect(run?.output).toMatch(/^1 row \(/);
    expect(cmds.find((x) => x.input === 'select nope from t')?.output).toMatch(
      /ERROR: 1054 \(42S22\): Unknown column 'nope'/,
    );
  });

  it('speaks TLS with a client that asks for it (--ssl), the password inside it', async () => {
    const r = await mysqlClient(port, login, PASSWORD, { e: 'status', extra: ['--ssl'] });
    expect(r.stdout, r.stderr).toMatch(/SSL:\s+Cipher in use is/);
  });

  it('refuses a wrong password and an unknown target with a clear message', async () => {
    const bad = await mysqlClient(port, login, 'wrong', { e: 'select 1' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/ERROR 1045/);
    const none = await mysqlClient(port, 'dana@nope', PASSWORD, { e: 'select 1' });
    expect(none.stderr).toContain('no granted mysql asset and account match "nope"');
  });
});
