import pg from 'pg';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost } from '../../../../test-support/accounts.ts';
import {
  dbAsset,
  mysqlClient,
  psql,
  scratchMysql,
  scratchPg,
  type ScratchDb,
} from '../../../../test-support/dbAssets.ts';
import { makePerm, makeUser, PASSWORD, type Row } from '../../../../test-support/perms.ts';
import { freePort } from '../../../../test-support/ports.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { commandReviewer, setCommandReviewer } from '../gateway/commandReview.ts';
import { put } from '../../../../test-support/tickets.ts';

/**
 * Command filter rules on statements through both proxies (the terminal's matcher on the
 * statement normalised), with psql and MariaDB's mysql: a reject rule catches a statement split
 * over lines, one after a comment and one among several, and none of the text reaches the
 * database; a review rule holds the statement on a command-confirm ticket until the reviewer
 * approves it (the tickets module, through the API) or a stub reviewer rejects it; a kill from the audit
 * ends a running session.
 */
let t: TestApp;
let admin: SessionClient;
let pgDb: ScratchDb;
let myDb: ScratchDb;
let pgPort: number;
let myPort: number;
let pgLogin: string;
let myLogin: string;
let pgAsset: Row;

const TASKS = '/api/v1/terminal/tasks';
const TICKETS = '/api/v1/tickets/apply-command-tickets/';

beforeAll(async () => {
  [pgDb, myDb] = await Promise.all([scratchPg(), scratchMysql()]);
  [pgPort, myPort] = await Promise.all([freePort(), freePort()]);
  t = await createTestApp({ GATEHOUSE_POSTGRESQL_PORT: String(pgPort), GATEHOUSE_MYSQL_PORT: String(myPort) });
  admin = await adminClient(t.app);
  const post = apiPost(admin);
  const p = await dbAsset(post, 'postgresql', pgDb);
  const m = await dbAsset(post, 'mysql', myDb);
  pgAsset = p.asset;
  const rita = await makeUser(admin, 'rita');
  await makePerm(admin, {
    users: [rita.id],
    assets: [p.asset.id, m.asset.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
  pgLogin = `rita@${p.account.name}@${p.asset.name}`;
  myLogin = `rita@${m.account.name}@${m.asset.name}`;
  const me = (await admin.get('/api/v1/users/profile/')).json();
  const group = await post('/api/v1/acls/command-groups/', { name: 'no-drops', content: 'drop database\ndrop table' });
  await post('/api/v1/acls/command-filter-acls/', {
    name: 'no-drops-rule',
    action: 'reject',
    priority: 10,
    users: { type: 'all' },
    assets: { type: 'all' },
    accounts: ['@ALL'],
    command_groups: [group.id],
    reviewers: [me.id],
  });
  const held = await post('/api/v1/acls/command-groups/', { name: 'deletes', content: 'delete from' });
  await post('/api/v1/acls/command-filter-acls/', {
    name: 'deletes-reviewed',
    action: 'review',
    priority: 20,
    users: { type: 'all' },
    assets: { type: 'all' },
    accounts: ['@ALL'],
    command_groups: [held.id],
    reviewers: [me.id],
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([pgDb?.drop(), myDb?.drop()]);
});

const REFUSED = /rejected by the rule "no-drops-rule"; it was not run/;

async function pgTableCount(): Promise<number> {
  const c = new pg.Client({ connectionString: `postgres://${pgDb.user}@127.0.0.1:5432/${pgDb.name}` });
  await c.connect();
  const r = await c.query('select count(*)::int as n from t');
  await c.end();
  return r.rows[0].n as number;
}

async function myTableCount(): Promise<number> {
  const c = await mysql.createConnection({ host: '127.0.0.1', user: 'root', database: myDb.name });
  const [rows] = await c.query('select count(*) as n from t');
  await c.end();
  return Number((rows as { n: number }[])[0]!.n);
}

describe('command filter rules on statements', () => {
  // psql sends a script statement by statement, but a -c text as one query.
  it.each([
    ['split over lines', 'DROP\nTABLE t;'],
    ['after a comment', '-- cleanup\n/* really */ drop /* the */ table t;'],
    ['one of several', "select 1; insert into t values (9, 'z'); DROP TABLE t;"],
  ])('PostgreSQL: a reject rule catches a statement %s, and nothing of the text runs', async (_name, sql) => {
    const r = await psql(pgPort, pgLogin, PASSWORD, { c: [sql] });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(REFUSED);
    expect(await pgTableCount()).toBe(3);
  });

  it.each([
    ['split over lines', 'DROP\nTABLE t;'],
    ['after a comment', '# cleanup\n/* really */ drop /* the */ table t;'],
    ['one of several', "select 1; insert into t values (9, 'z'); DROP TABLE t;"],
    ['in an executable comment', '/*!50000 DROP */ TABLE t;'],
  ])('MySQL: a reject rule catches a statement %s, and nothing of the text runs', async (_name, sql) => {
    // The client splits at its delimiter: with another one the whole text goes as one COM_QUERY.
    const r = await mysqlClient(myPort, myLogin, PASSWORD, { stdin: `DELIMITER //\n${sql.replace(/;\s*$/, '')}//\n` });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(REFUSED);
    expect(await myTableCount()).toBe(3);
  });

  it('records the refused statement with the rule and its message', async () => {
    const sessions = (await admin.get('/api/v1/terminal/sessions/?protocol=postgresql&order=-date_start')).json();
    const refused = (await admin.get(`/api/v1/terminal/commands/?risk_level=5&asset_id=${pgAsset.id}`)).json() as Row[];
    expect(refused.some((c) => c.input === 'DROP\nTABLE t')).toBe(true);
    expect(refused[0]!.output).toMatch(REFUSED);
    expect(sessions.length).toBeGreaterThan(0);
  });

  it("holds a statement on a command-confirm ticket until the rule's reviewer approves it", async () => {
    const before = await pgTableCount();
    const c = new pg.Client({ host: '127.0.0.1', port: pgPort, user: pgLogin, password: PASSWORD });
    await c.connect();
    const running = c.query('delete from t where id = 1');
    let ticket: Row | undefined;
    await expect
      .poll(async () => {
        ticket = ((await admin.get(`${TICKETS}?status=open`)).json() as Row[])[0];
        return ticket?.apply_run_command;
      })
      .toBe('delete from t where id = 1');
    expect(await pgTableCount()).toBe(before);
    expect((await put(admin, `${TICKETS}${ticket!.id}/approve/`)).statusCode).toBe(200);
    expect((await running).rowCount).toBe(1);
    expect(await pgTableCount()).toBe(before - 1);
    await c.end();
  });

  it('holds a statement under a review rule until the reviewer approves it', async () => {
    const before = await pgTableCount();
    const real = commandReviewer();
    const asked: string[] = [];
    setCommandReviewer(async (r) => {
      asked.push(r.command);
      return r.command.includes('id = 3') ? 'approved' : 'rejected';
    });
    const ok = await psql(pgPort, pgLogin, PASSWORD, { c: ['delete from t where id = 3'] });
    expect(ok.stderr).not.toMatch(/ERROR/);
    const no = await psql(pgPort, pgLogin, PASSWORD, { c: ['delete from t where id = 2'] });
    expect(no.stderr).toMatch(/not approved; it was not run/);
    expect(asked).toEqual(['delete from t where id = 3', 'delete from t where id = 2']);
    expect(await pgTableCount()).toBe(before - 1);
    setCommandReviewer(real);
  });

  it('locks a session from the audit and lets the client on when unlocked', async () => {
    const c = new pg.Client({ host: '127.0.0.1', port: pgPort, user: pgLogin, password: PASSWORD });
    await c.connect();
    await c.query('select 1');
    const running = (await admin.get('/api/v1/terminal/sessions/?is_finished=0&protocol=postgresql')).json() as Row[];
    const id = running[0]!.id as string;
    const lock = (task_name: string) => admin.post(`${TASKS}/toggle-lock-session/`, { session_id: id, task_name });
    expect((await lock('lock_session')).statusCode).toBe(200);
    await expect.poll(async () => (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json().is_locked).toBe(true);
    const held = c.query('select 2 as two');
    expect((await lock('unlock_session')).statusCode).toBe(200);
    expect((await held).rows).toEqual([{ two: 2 }]);
    await expect.poll(async () => (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json().is_locked).toBe(false);
    const cmds = (await admin.get(`/api/v1/terminal/commands/?session_id=${id}`)).json() as Row[];
    expect(cmds.map((x) => x.input)).toContain('select 2 as two');
    await c.end();
  });

  it('ends a running session killed from the audit, with a message to the client', async () => {
    const c = new pg.Client({ host: '127.0.0.1', port: pgPort, user: pgLogin, password: PASSWORD });
    const ended = new Promise<string>((resolve) => {
      c.on('error', (e) => resolve(e.message));
      c.on('end', () => resolve('end'));
    });
    await c.connect();
    await c.query('select 1');
    const running = (await admin.get('/api/v1/terminal/sessions/?is_finished=0&protocol=postgresql')).json() as Row[];
    expect(running).toHaveLength(1);
    expect((await admin.post(`${TASKS}/kill-session/`, [running[0]!.id])).json()).toEqual({ ok: [running[0]!.id] });
    expect(await ended).toMatch(/terminated by an administrator/);
    await expect
      .poll(async () => (await admin.get(`/api/v1/terminal/sessions/${running[0]!.id}/`)).json().is_finished)
      .toBe(true);
  });
});
