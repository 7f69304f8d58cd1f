import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost } from '../../../../test-support/accounts.ts';
import { codeAt } from '../../../../test-support/auth.ts';
import { newOtpSecret } from '../../authentication/mfa/otp.ts';
import { dbAsset, psql, scratchPg, type ScratchDb } from '../../../../test-support/dbAssets.ts';
import { makePerm, makeUser, PASSWORD, type Row } from '../../../../test-support/perms.ts';
import { freePort } from '../../../../test-support/ports.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';

/**
 * The PostgreSQL proxy against the machine's PostgreSQL with the real `psql` (and node-postgres for
 * the extended protocol): sign-in as `<user>@<account>@<asset>`, statements recorded whole, command
 * filter rules on statements, and bad clients.
 */
let t: TestApp;
let admin: SessionClient;
let db: ScratchDb;
let port: number;
let asset: Row;
let account: Row;
let login: string;

beforeAll(async () => {
  db = await scratchPg();
  port = await freePort();
  t = await createTestApp({ GATEHOUSE_POSTGRESQL_PORT: String(port) });
  admin = await adminClient(t.app);
  ({ asset, account } = await dbAsset(apiPost(admin), 'postgresql', db));
  const dana = await makeUser(admin, 'dana');
  await makePerm(admin, { users: [dana.id], assets: [asset.id], accounts: ['@ALL'], actions: ['connect'] });
  login = `dana@${account.name}@${asset.name}`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

async function sessions(): Promise<Row[]> {
  return (await admin.get('/api/v1/terminal/sessions/?protocol=postgresql&order=-date_start')).json();
}

async function commandsOf(sessionId: string): Promise<Row[]> {
  return (await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json();
}

describe('PostgreSQL proxy', () => {
  it('lets psql in as user@account@asset and records each statement with its outcome', async () => {
    const r = await psql(port, login, PASSWORD, { c: ['select v from t order by id; select count(*) from t'] });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['a', 'b', 'c', '3']);
    await expect.poll(async () => (await sessions())[0]?.is_finished).toBe(true);
    const s = (await sessions())[0]!;
    expect(s).toMatchObject({ protocol: 'postgresql', is_success: true, command_amount: 2 });
    expect(s.login_from).toMatchObject({ value: 'ST' });
    expect(s.asset).toContain(asset.name);
    const cmds = await commandsOf(s.id);
    expect(cmds.map((c) => c.input)).toEqual(['select v from t order by id', 'select count(*) from t']);
    expect(cmds[0]!.output).toMatch(/^SELECT 3 \(\d+(\.\d)? ms\)$/);
    expect(s.has_replay).toBe(true);
  });

  it('records extended-query statements at each execution', async () => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: login, password: PASSWORD, database: db.name });
    await c.connect();
    const r = await c.query('select v from t where id = $1', [2]);
    expect(r.rows).toEqual([{ v: 'b' }]);
    await c.query('select v from t where id = $1', [3]);
    await expect(c.query('select nope from t')).rejects.toThrow(/nope/);
    await c.end();
    await expect.poll(async () => (await sessions())[0]?.is_finished).toBe(true);
    const cmds = await commandsOf((await sessions())[0]!.id);
    expect(cmds.map((x) => x.input)).toEqual([
      'select v from t where id = $1',
      'select v from t where id = $1',
      'select nope from t',
    ]);
    expect(cmds[2]!.output).toMatch(/ERROR: 42703 column "nope" does not exist/);
  });

  it('speaks TLS with a client that asks for it (sslmode=require), the password inside it', async () => {
    const r = await psql(port, login, PASSWORD, {
      db: `sslmode=require dbname=${db.name}`,
      c: ['select count(*) from t'],
    });
    expect(r.stdout.trim(), r.stderr).toBe('3');
    expect(fs.existsSync(path.join(t.dataDir, 'db-proxy.crt'))).toBe(true);
  });

  it('refuses a wrong password and an unknown target with a clear message', async () => {
    const bad = await psql(port, login, 'wrong', { c: ['select 1'] });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/password|authentication/i);
    const none = await psql(port, 'dana@nope', PASSWORD, { c: ['select 1'] });
    expect(none.stderr).toContain('no granted postgresql asset and account match "nope"');
    const plain = await psql(port, 'dana', PASSWORD, { c: ['select 1'] });
    expect(plain.stderr).toContain('<user>@<account>@<asset>');
  });

  it('asks a user with MFA for the code after the password, checked as native SSH checks it', async () => {
    const otto = await makeUser(admin, 'otto');
    await makePerm(admin, { users: [otto.id], assets: [asset.id], accounts: ['@ALL'], actions: ['connect'] });
    const secret = newOtpSecret();
    await t.deps.database.db
      .updateTable('users_user')
      .set({ mfa_level: 1, otp_secret_key: t.deps.secretBox.encrypt(secret) })
      .where('username', '=', 'otto')
      .execute();
    const who = `otto@${account.name}@${asset.name}`;
    const bare = await psql(port, who, PASSWORD, { c: ['select 1'] });
    expect(bare.stderr).toContain('append the current 6-digit code to the password');
    const wrong = await psql(port, who, `${PASSWORD}000000`, { c: ['select 1'] });
    expect(wrong.code).not.toBe(0);
    const ok = await psql(port, who, `${PASSWORD}${codeAt(secret)}`, { c: ['select 11'] });
    expect(ok.stdout.trim(), ok.stderr).toBe('11');
    const logs = await t.deps.database.db
      .selectFrom('audits_userloginlog')
      .selectAll()
      .where('username', '=', 'otto')
      .execute();
    expect(logs.some((l) => !l.status && l.reason === 'mfa_failed')).toBe(true);
    expect(logs.some((l) => Boolean(l.status) && Number(l.mfa) === 1)).toBe(true);
  });

  it('lets psql in with a connection token: the command line from client-url, the value as password, once', async () => {
    const me = (await admin.get('/api/v1/users/profile/')).json();
    await makePerm(admin, { users: [me.id], assets: [asset.id], accounts: ['@ALL'], actions: ['connect'] });
    const res = await admin.post('/api/v1/authentication/connection-token/', {
      asset: asset.id,
      account: account.id,
      protocol: 'postgresql',
      connect_method: 'db_client',
    });
    expect(res.statusCode, res.body).toBe(201);
    const token = res.json();
    const url = (await admin.get(`/api/v1/authentication/connection-token/${token.id}/client-url/`)).json().url;
    const data = JSON.parse(Buffer.from(url.slice('jms://'.length), 'base64').toString());
    expect(data.command).toBe(`psql "host=localhost port=${port} user=${token.id} dbname=${db.name}"`);
    expect(data.command).not.toContain(token.value);
    expect(data.endpoint.port).toBe(port);
    expect((await admin.get('/api/v1/terminal/endpoints/smart/')).json()).toMatchObject({ postgresql_port: port });
    const r = await psql(port, token.id, token.value, { db: db.name, c: ['select count(*) from t'] });
    expect(r.stdout.trim()).toBe('3');
    const again = await psql(port, token.id, token.value, { db: db.name, c: ['select 1'] });
    expect(again.stderr).toMatch(/authentication failed/);
  });

  it('answers a client of another protocol, a truncated packet and a huge message with an error, and keeps listening', async () => {
    const talk = (bytes: Buffer, endAfter = true) =>
      new Promise<Buffer>((resolve) => {
        const s = net.connect(port, '127.0.0.1');
        const got: Buffer[] = [];
        s.on('data', (b) => got.push(b));
        s.on('close', () => resolve(Buffer.concat(got)));
        s.on('error', () => undefined);
        s.write(bytes);
        if (endAfter) s.end();
      });
    const http = await talk(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(http.toString('latin1')).toContain('not the PostgreSQL protocol');
    const huge = Buffer.alloc(8);
    huge.writeInt32BE(1 << 30, 0);
    huge.writeInt32BE(196608, 4);
    expect((await talk(huge)).toString('latin1')).toMatch(/malformed|over the limit/);
    // A truncated startup message: the client hangs up mid-message; nothing is left behind.
    const cut = Buffer.alloc(12);
    cut.writeInt32BE(40, 0);
    cut.writeInt32BE(196608, 4);
    expect((await talk(cut)).length).toBe(0);
    const ok = await psql(port, login, PASSWORD, { c: ['select 42'] });
    expect(ok.stdout.trim()).toBe('42');
  });
});
