import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { osUser, startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { sshLogin } from '../accounts/verify.ts';

/**
 * Change secret on the machine's MariaDB (127.0.0.1:3306) and PostgreSQL (127.0.0.1:5432) with
 * `ALTER USER` through their own protocols, by a privileged database account the test creates (and
 * drops after), directly and through a domain gateway (a real sshd forwarding the connection).
 * PostgreSQL here trusts every local connection, so a login proves nothing: the test reads the
 * role's SCRAM verifier instead and checks the new password against it.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const tag = randomBytes(3).toString('hex');
const my = { adm: `ghadm${tag}`, tgt: `ghtgt${tag}`, nop: `ghnop${tag}` };
const pgRoles = { adm: `ghpadm${tag}`, tgt: `ghptgt${tag}` };

let t: TestApp;
let admin: SessionClient;
let root: mysql.Connection;
let sshd: SshdWithUsers;
let linuxUser: ReturnType<typeof osUser>;

async function rootPg<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Whether `password` matches a PostgreSQL `SCRAM-SHA-256$iter:salt$StoredKey:ServerKey` verifier. */
function scramMatches(verifier: string, password: string): boolean {
  const m = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):/.exec(verifier);
  if (!m) return false;
  const salted = pbkdf2Sync(password, Buffer.from(m[2]!, 'base64'), Number(m[1]), 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  return createHash('sha256').update(clientKey).digest('base64') === m[3];
}

const mysqlLogin = async (user: string, password: string) => {
  try {
    const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user, password });
    await c.end();
    return true;
  } catch {
    return false;
  }
};

async function run(automation: string): Promise<{ exec: Json; records: Json[] }> {
  const res = await admin.post('/api/v1/accounts/change-secret-executions/', { automation });
  expect(res.statusCode, res.body).toBe(201);
  const task = res.json().task as string;
  const url = `/api/v1/accounts/change-secret-executions/${task}/`;
  await expect
    .poll(async () => (await admin.get(url)).json().status?.value, { timeout: 60_000 })
    .toMatch(/success|failed/);
  const records = (await admin.get(`/api/v1/accounts/change-secret-records/?execution_id=${task}`)).json() as Json[];
  return { exec: (await admin.get(url)).json(), records };
}

async function plan(name: string, assets: string[], accounts: string[], secret: string): Promise<string> {
  const res = await admin.post('/api/v1/accounts/change-secret-automations/', {
    name,
    assets,
    accounts,
    secret,
    is_periodic: false,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const vault = async (id: string) =>
  t.deps.secretBox.decrypt(
    (
      await t.deps.database.db
        .selectFrom('accounts_account')
        .select('secret')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).secret!,
  );

beforeAll(async () => {
  root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  for (const [u, p] of [
    [my.adm, 'Adm-pass-1'],
    [my.tgt, 'Old-pass-1'],
    [my.nop, 'Nop-pass-1'],
  ] as const)
    await root.query('CREATE USER ?@? IDENTIFIED BY ?', [u, '127.0.0.1', p]);
  await root.query('GRANT CREATE USER ON *.* TO ?@?', [my.adm, '127.0.0.1']);
  await root.query('GRANT SELECT ON mysql.* TO ?@?', [my.adm, '127.0.0.1']);
  await rootPg(async (c) => {
    await c.query(`CREATE ROLE ${pgRoles.adm} LOGIN CREATEROLE PASSWORD 'Padm-pass-1'`);
    await c.query(`CREATE ROLE ${pgRoles.tgt} LOGIN PASSWORD 'Pold-pass-1'`);
  });
  linuxUser = osUser('Gw-old-pass-1');
  sshd = await startSshd({ osUsers: [linuxUser.username] });
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 60_000);

afterAll(async () => {
  await t?.close();
  sshd?.stop();
  linuxUser?.remove();
  for (const u of Object.values(my))
    await root?.query('DROP USER IF EXISTS ?@?', [u, '127.0.0.1']).catch(() => undefined);
  await root?.end();
  await rootPg(async (c) => {
    for (const r of Object.values(pgRoles)) await c.query(`DROP ROLE IF EXISTS ${r}`);
  }).catch(() => undefined);
});

async function mariadbAsset(extra: Json = {}): Promise<Json> {
  return apiPost(admin)('/api/v1/assets/databases/', {
    name: `mdb-${randomBytes(3).toString('hex')}`,
    address: '127.0.0.1',
    platform: 'MariaDB',
    protocols: [{ name: 'mariadb', port: 3306 }],
    ...extra,
  });
}

describe('change secret on databases', () => {
  it('changes a MariaDB user with ALTER USER by the privileged account and verifies the new password', async () => {
    const db = await mariadbAsset();
    await apiPost(admin)(ACCOUNTS, { asset: db.id, username: my.adm, secret: 'Adm-pass-1', privileged: true });
    const account = await apiPost(admin)(ACCOUNTS, { asset: db.id, username: my.tgt, secret: 'Old-pass-1' });
    const { exec, records } = await run(await plan('mdb-change', [db.id], [my.tgt], 'New-mdb-pass-2'));
    expect(exec.status.value).toBe('success');
    expect(records).toMatchObject([{ is_success: true, state: 'new' }]);
    expect(await vault(account.id)).toBe('New-mdb-pass-2');
    expect(await mysqlLogin(my.tgt, 'New-mdb-pass-2')).toBe(true);
    expect(await mysqlLogin(my.tgt, 'Old-pass-1')).toBe(false);
  }, 90_000);

  it('fails the record, keeping the working password, when the privileged account lacks the privilege', async () => {
    const db = await mariadbAsset();
    await apiPost(admin)(ACCOUNTS, { asset: db.id, username: my.nop, secret: 'Nop-pass-1', privileged: true });
    const account = await apiPost(admin)(ACCOUNTS, { asset: db.id, username: my.tgt, secret: 'New-mdb-pass-2' });
    const { exec, records } = await run(await plan('mdb-noprivilege', [db.id], [my.tgt], 'Never-set-3'));
    expect(exec.status.value).toBe('failed');
    expect(records[0]).toMatchObject({ is_success: false, state: 'old' });
    expect(records[0]!.error).toMatch(/CREATE USER|denied/i);
    expect(await vault(account.id)).toBe('New-mdb-pass-2');
    expect(await mysqlLogin(my.tgt, 'New-mdb-pass-2')).toBe(true);
  }, 90_000);

  it('changes a PostgreSQL role with ALTER ROLE; the stored verifier matches the new password', async () => {
    const db = await apiPost(admin)('/api/v1/assets/databases/', {
      name: `pg-${tag}`,
      address: '127.0.0.1',
      platform: 'PostgreSQL',
      db_name: 'test',
      protocols: [{ name: 'postgresql', port: 5432 }],
    });
    await apiPost(admin)(ACCOUNTS, { asset: db.id, username: pgRoles.adm, secret: 'Padm-pass-1', privileged: true });
    const account = await apiPost(admin)(ACCOUNTS, { asset: db.id, username: pgRoles.tgt, secret: 'Pold-pass-1' });
    const { exec } = await run(await plan('pg-change', [db.id], [pgRoles.tgt], 'Pnew-pass-2'));
    expect(exec.status.value).toBe('success');
    const verifier = await rootPg(
      async (c) =>
        (await c.query('SELECT rolpassword FROM pg_authid WHERE rolname = $1', [pgRoles.tgt])).rows[0].rolpassword,
    );
    expect(scramMatches(verifier, 'Pnew-pass-2')).toBe(true);
    expect(scramMatches(verifier, 'Pold-pass-1')).toBe(false);
    expect(await vault(account.id)).toBe('Pnew-pass-2');
  }, 90_000);

  it("goes through the domain's gateway to a database and to a host, and signs in with the new secret", async () => {
    const post = apiPost(admin);
    const domain = await post('/api/v1/assets/domains/', { name: `dom-${tag}` });
    const gw = await post('/api/v1/assets/gateways/', {
      name: `gw-${tag}`,
      address: '127.0.0.1',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: sshd.port }],
    });
    await post(ACCOUNTS, {
      asset: gw.id,
      username: 'root',
      secret_type: 'ssh_key',
      secret: sshd.privateKey,
      privileged: true,
    });
    const db = await mariadbAsset({ domain: domain.id });
    await post(ACCOUNTS, { asset: db.id, username: my.adm, secret: 'Adm-pass-1', privileged: true });
    const dbAccount = await post(ACCOUNTS, { asset: db.id, username: my.tgt, secret: 'New-mdb-pass-2' });
    const host = await linuxHost(post, sshd.port, { domain: domain.id });
    await post(ACCOUNTS, {
      asset: host.id,
      username: 'root',
      secret_type: 'ssh_key',
      secret: sshd.privateKey,
      privileged: true,
    });
    const hostAccount = await post(ACCOUNTS, {
      asset: host.id,
      username: linuxUser.username,
      secret: linuxUser.password,
    });
    const { exec, records } = await run(
      await plan('via-gateway', [db.id, host.id], [my.tgt, linuxUser.username], 'Via-gw-pass-4'),
    );
    expect(exec.status.value, JSON.stringify(records)).toBe('success');
    expect(records.map((r) => r.state)).toEqual(['new', 'new']);
    expect(await vault(dbAccount.id)).toBe('Via-gw-pass-4');
    expect(await vault(hostAccount.id)).toBe('Via-gw-pass-4');
    expect(await mysqlLogin(my.tgt, 'Via-gw-pass-4')).toBe(true);
    expect(
      await sshLogin({ host: '127.0.0.1', port: sshd.port, username: linuxUser.username, password: 'Via-gw-pass-4' }),
    ).toBeUndefined();
    // The gateway carried both: its host key was recorded when the run reached it.
    const keys = await t.deps.database.db
      .selectFrom('terminal_hostkey')
      .select('asset_id')
      .where('asset_id', '=', gw.id)
      .execute();
    expect(keys.length).toBeGreaterThan(0);
  }, 90_000);
});
