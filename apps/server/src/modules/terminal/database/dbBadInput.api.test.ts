import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, apiPost } from '../../../../test-support/accounts.ts';
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
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { authRequest, errorResponse, MessageReader, passwordMessage, readyForQuery, startupMessage } from './pgWire.ts';
import { handshakeResponse, PacketReader, packet, CAP } from './mysqlWire.ts';

/**
 * What the proxies do with bad input and bad upstreams (the real servers, psql and mysql): the
 * wrong protocol, a truncated message, a 1 GB statement, an authentication method they do not
 * support (a server stand-in asking for GSSAPI: nothing here runs Kerberos), a database that is
 * down. Each is a clear protocol error to the client and, once the user and asset are known, a
 * failed session record; the listener goes on and no upstream connection is left open. And a
 * database behind a domain gateway (a real sshd as the gateway).
 */
let t: TestApp;
let admin: SessionClient;
let pgDb: ScratchDb;
let myDb: ScratchDb;
let pgPort: number;
let myPort: number;
let pgLogin: string;
let myLogin: string;
let jump: SshdWithUsers;
let post: ReturnType<typeof apiPost>;
let user: Row;

beforeAll(async () => {
  [pgDb, myDb, jump] = await Promise.all([scratchPg(), scratchMysql(), startShellSshd()]);
  [pgPort, myPort] = await Promise.all([freePort(), freePort()]);
  t = await createTestApp({ GATEHOUSE_POSTGRESQL_PORT: String(pgPort), GATEHOUSE_MYSQL_PORT: String(myPort) });
  admin = await adminClient(t.app);
  post = apiPost(admin);
  const p = await dbAsset(post, 'postgresql', pgDb);
  const m = await dbAsset(post, 'mysql', myDb);
  user = await makeUser(admin, 'bert');
  await makePerm(admin, {
    users: [user.id],
    assets: [p.asset.id, m.asset.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
  pgLogin = `bert@${p.account.name}@${p.asset.name}`;
  myLogin = `bert@${m.account.name}@${m.asset.name}`;
}, 60_000);

afterAll(async () => {
  jump?.stop();
  await t?.close();
  await Promise.all([pgDb?.drop(), myDb?.drop()]);
});

async function pgConnections(): Promise<number> {
  const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await c.connect();
  const r = await c.query('select count(*)::int as n from pg_stat_activity where usename = $1', [pgDb.user]);
  await c.end();
  return r.rows[0].n as number;
}

async function myConnections(): Promise<number> {
  const c = await mysql.createConnection({ host: '127.0.0.1', user: 'root' });
  const [rows] = await c.query('select count(*) as n from information_schema.processlist where user = ?', [myDb.user]);
  await c.end();
  return Number((rows as { n: number }[])[0]!.n);
}

async function lastSession(protocol: string): Promise<Row> {
  return (await admin.get(`/api/v1/terminal/sessions/?protocol=${protocol}&order=-date_start`)).json()[0];
}

/** A raw conversation: what the proxy sends until it closes, after `steps` wrote their bytes. */
function converse(port: number, steps: (s: net.Socket, got: () => Buffer) => Promise<void>): Promise<Buffer> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    s.on('data', (b) => got.push(b));
    s.on('close', () => resolve(Buffer.concat(got)));
    s.on('error', () => undefined);
    s.once('connect', () => void steps(s, () => Buffer.concat(got)).catch(() => s.destroy()));
  });
}

const until = async (cond: () => boolean) => expect.poll(cond, { timeout: 10_000 }).toBe(true);

/** Signs in on the PostgreSQL proxy over a raw socket, up to the first ReadyForQuery. */
async function pgSignIn(s: net.Socket, got: () => Buffer): Promise<void> {
  s.write(startupMessage({ user: pgLogin, database: pgDb.name }));
  await until(() => got().includes(authRequest(3)));
  s.write(passwordMessage(PASSWORD));
  await until(() => got().includes(readyForQuery('I')));
}

describe('bad input on the PostgreSQL proxy', () => {
  it('a 1 GB query: refused at its header, the session recorded as failed, the upstream closed', async () => {
    const answer = await converse(pgPort, async (s, got) => {
      await pgSignIn(s, got);
      const head = Buffer.alloc(5 + 1024);
      head.write('Q', 0, 'latin1');
      head.writeInt32BE(1 << 30, 1);
      s.write(head);
    });
    expect(answer.toString('utf8')).toMatch(/message of 1073741824 bytes is over the limit of 16777216 bytes/);
    await expect.poll(async () => (await lastSession('postgresql')).is_finished).toBe(true);
    expect(await lastSession('postgresql')).toMatchObject({
      is_success: false,
      comment: expect.stringMatching(/over the limit/),
    });
    await expect.poll(pgConnections).toBe(0);
  });

  it('a message cut short when the client leaves: the session ends, the upstream is closed', async () => {
    await converse(pgPort, async (s, got) => {
      await pgSignIn(s, got);
      const head = Buffer.alloc(5 + 10);
      head.write('Q', 0, 'latin1');
      head.writeInt32BE(200, 1);
      s.end(head);
    });
    await expect.poll(async () => (await lastSession('postgresql')).is_finished).toBe(true);
    await expect.poll(pgConnections).toBe(0);
    expect((await psql(pgPort, pgLogin, PASSWORD, { c: ['select 7'] })).stdout.trim()).toBe('7');
  });

  it('a database that is down, and a server asking for an authentication the proxy does not support', async () => {
    const closed = await freePort();
    const down = await dbAsset(post, 'postgresql', pgDb, { port: closed });
    // A stand-in server asking for GSSAPI (AuthenticationGSS, code 7).
    const gss = net.createServer((sock) => {
      sock.once('data', () => sock.write(authRequest(7)));
      sock.on('error', () => undefined);
    });
    await new Promise<void>((r) => gss.listen(0, '127.0.0.1', () => r()));
    const gssPort = (gss.address() as net.AddressInfo).port;
    const kerberos = await dbAsset(post, 'postgresql', pgDb, { port: gssPort });
    await makePerm(admin, {
      users: [user.id],
      assets: [down.asset.id, kerberos.asset.id],
      accounts: ['@ALL'],
      actions: ['connect'],
    });
    const r1 = await psql(pgPort, `bert@${down.account.name}@${down.asset.name}`, PASSWORD, { c: ['select 1'] });
    expect(r1.stderr).toMatch(new RegExp(`Could not connect to 127.0.0.1:${closed}: connect ECONNREFUSED`));
    const failed = (await admin.get(`/api/v1/terminal/sessions/?asset_id=${down.asset.id}`)).json()[0];
    expect(failed).toMatchObject({
      is_success: false,
      is_finished: true,
      comment: expect.stringMatching(/ECONNREFUSED/),
    });
    const r2 = await psql(pgPort, `bert@${kerberos.account.name}@${kerberos.asset.name}`, PASSWORD, {
      c: ['select 1'],
    });
    expect(r2.stderr).toMatch(/the database refused the account's login: unsupported authentication request 7/);
    gss.close();
  });

  it('the PostgreSQL error builder speaks the protocol (a sanity check of the stand-in above)', () => {
    const r = new MessageReader(1000);
    r.typed = true;
    r.push(errorResponse('28000', 'x'));
    expect(r.next()?.type).toBe('E');
  });
});

/** Signs in on the MySQL proxy over a raw socket (clear password), up to its OK. */
async function mySignIn(s: net.Socket, got: () => Buffer): Promise<void> {
  await until(() => got().length > 4);
  const caps = CAP.PROTOCOL_41 | CAP.SECURE_CONNECTION | CAP.PLUGIN_AUTH | CAP.PLUGIN_AUTH_LENENC | CAP.LONG_PASSWORD;
  const auth = Buffer.from(`${PASSWORD}\0`);
  s.write(
    packet(
      1,
      handshakeResponse({ caps, charset: 45, user: myLogin, auth, database: '', plugin: 'mysql_clear_password' }),
    ),
  );
  await until(() => {
    const r = new PacketReader(1 << 20);
    r.push(got());
    r.next();
    return r.next()?.payload[0] === 0x00;
  });
}

describe('bad input on the MySQL proxy', () => {
  it('a client of another protocol gets an error, and the listener goes on', async () => {
    const answer = await converse(myPort, async (s, got) => {
      await until(() => got().length > 4);
      s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(answer.toString('utf8')).toMatch(/malformed or truncated/);
    expect((await mysqlClient(myPort, myLogin, PASSWORD, { e: 'select 5' })).stdout.trim()).toBe('5');
  });

  it('a statement over 16 MiB: refused, the session recorded as failed, the upstream closed', async () => {
    const answer = await converse(myPort, async (s, got) => {
      await mySignIn(s, got);
      const big = Buffer.alloc(0xffffff, 0x20);
      big[0] = 0x03;
      s.write(Buffer.concat([packet(0, big).subarray(0, 4 + 0xffffff), Buffer.from([0xff, 0xff, 0xff, 1])]));
    });
    expect(answer.toString('utf8')).toMatch(/over the limit of 16777216 bytes/);
    await expect.poll(async () => (await lastSession('mysql')).is_finished).toBe(true);
    expect(await lastSession('mysql')).toMatchObject({ is_success: false });
    await expect.poll(myConnections).toBe(0);
  });

  it('a client that will not send the password in clear is told why', async () => {
    await expect(
      mysql.createConnection({ host: '127.0.0.1', port: myPort, user: myLogin, password: PASSWORD }),
    ).rejects.toThrow(/mysql_clear_password/);
  });
});

describe('a database behind a domain gateway', () => {
  it('is reached through the gateway with its account, and fails clearly when the gateway is down', async () => {
    const domain = (await admin.post('/api/v1/assets/domains/', { name: 'db-dmz' })).json();
    const gw = await post('/api/v1/assets/gateways/', {
      name: 'db-jump',
      address: '127.0.0.1',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: jump.port }],
    });
    await post(ACCOUNTS, { asset: gw.id, username: jump.username, secret: jump.password });
    const inner = await dbAsset(post, 'postgresql', pgDb, { domain: domain.id });
    await makePerm(admin, { users: [user.id], assets: [inner.asset.id], accounts: ['@ALL'], actions: ['connect'] });
    const login = `bert@${inner.account.name}@${inner.asset.name}`;
    const r = await psql(pgPort, login, PASSWORD, { c: ['select count(*) from t'] });
    expect(r.stdout.trim(), r.stderr).toBe('3');
    const keys = await t.deps.database.db.selectFrom('terminal_hostkey').selectAll().execute();
    expect(keys.some((k) => k.asset_id === gw.id)).toBe(true);
    jump.stop();
    const down = await psql(pgPort, login, PASSWORD, { c: ['select 1'] });
    expect(down.stderr).toContain(`Could not connect to 127.0.0.1:${jump.port}`);
  });
});
