import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { sshLogin } from '../accounts/verify.ts';

/**
 * Push (issue 30, item 2): accounts of the vault created on a real host (useradd, the password by
 * chpasswd or the key into authorized_keys, sudo by a sudoers file when its params ask) and on the
 * machine's MariaDB (CREATE USER), by a plan or at once from the account form (`push_now`); then a
 * login with the pushed secret. The users made on this machine are removed after.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const tag = randomBytes(3).toString('hex');
const names = { plan: `ghpa${tag}`, now: `ghpb${tag}`, key: `ghpc${tag}`, db: `ghpd${tag}` };
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let host: Json;

const login = (username: string, cred: { password?: string; privateKey?: string }) =>
  sshLogin({ host: '127.0.0.1', port: sshd.port, username, ...cred });

async function recordsOf(query: string): Promise<Json[]> {
  return (await admin.get(`/api/v1/accounts/push-account-records/?${query}`)).json();
}

/** The push record of `account` (by asset) or of the execution, once there is one. */
async function recordOf(query: string, account?: string): Promise<Json> {
  const find = async () => (await recordsOf(query)).find((r) => !account || r.account.id === account);
  await expect.poll(find, { timeout: 60_000 }).toBeDefined();
  return (await find())!;
}

beforeAll(async () => {
  sshd = await startSshd({ osUsers: [names.plan, names.now, names.key] });
  t = await createTestApp();
  admin = await adminClient(t.app);
  host = await linuxHost(apiPost(admin), sshd.port);
  await apiPost(admin)(ACCOUNTS, {
    asset: host.id,
    username: 'root',
    secret_type: 'ssh_key',
    secret: sshd.privateKey,
    privileged: true,
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  sshd?.stop();
  for (const u of [names.plan, names.now, names.key]) {
    try {
      execFileSync('userdel', ['-r', '-f', u], { stdio: 'ignore' });
    } catch {
      // not created
    }
    fs.rmSync(`/etc/sudoers.d/gh-${u}`, { force: true });
  }
  const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  await root.query('DROP USER IF EXISTS ?@?', [names.db, '%']);
  await root.end();
});

describe('push accounts', () => {
  it('creates the account on the host by a plan and signs in with it; sudo asked where sudo is missing is refused first', async () => {
    const account = await apiPost(admin)(ACCOUNTS, {
      asset: host.id,
      username: names.plan,
      secret: 'Pushed-pass-1',
      params: { sudo: true },
    });
    const plan = await apiPost(admin)('/api/v1/accounts/push-account-automations/', {
      name: 'push-plan',
      assets: [host.id],
      accounts: [names.plan],
      is_periodic: false,
      secret_strategy: 'random',
    });
    const push = async () => {
      const res = await admin.post('/api/v1/accounts/push-account-executions/', { automation: plan.id });
      expect(res.statusCode, res.body).toBe(201);
      return recordOf(`execution_id=${res.json().task}`);
    };
    const hasSudo = fs.existsSync('/usr/bin/sudo');
    if (!hasSudo) {
      // This machine has no sudo: the push says so and creates nothing.
      const refused = await push();
      expect(refused.error).toMatch(/sudo is not installed/);
      expect(() => execFileSync('id', [names.plan], { stdio: 'ignore' })).toThrow();
      await admin.request({ method: 'PATCH', url: `${ACCOUNTS}${account.id}/`, payload: { params: {} } });
    }
    const r = await push();
    expect(r.status, r.error).toBe('success');
    expect(await login(names.plan, { password: 'Pushed-pass-1' })).toBeUndefined();
    if (hasSudo)
      expect(fs.readFileSync(`/etc/sudoers.d/gh-${names.plan}`, 'utf8')).toContain(
        `${names.plan} ALL=(ALL) NOPASSWD: ALL`,
      );
  }, 90_000);

  it('pushes at once from the account form (push_now), a password and a key', async () => {
    const key = ssh2.utils.generateKeyPairSync('ed25519');
    // One after the other: two runs changing one host's user database at the same moment can race
    // in its tools (useradd and chpasswd each lock, not together); the records would say so.
    const pw = await apiPost(admin)(ACCOUNTS, {
      asset: host.id,
      username: names.now,
      secret: 'Now-pass-2',
      push_now: true,
    });
    const r1 = await recordOf(`asset=${host.id}`, pw.id);
    expect(r1.status, r1.error).toBe('success');
    const k = await apiPost(admin)(ACCOUNTS, {
      asset: host.id,
      username: names.key,
      secret_type: 'ssh_key',
      secret: key.private,
    });
    // The account list's "push" action: accounts/tasks/ with action push.
    const task = await admin.post('/api/v1/accounts/accounts/tasks/', { action: 'push', accounts: [k.id] });
    expect(task.statusCode, task.body).toBe(200);
    const r2 = await recordOf(`execution_id=${task.json().task}`);
    expect(r2.status, r2.error).toBe('success');
    expect(await login(names.now, { password: 'Now-pass-2' })).toBeUndefined();
    expect(await login(names.key, { privateKey: key.private })).toBeUndefined();
    expect(fs.existsSync(`/etc/sudoers.d/gh-${names.now}`)).toBe(false);
  }, 90_000);

  it('refuses a key push to a Windows asset', async () => {
    const win = await apiPost(admin)('/api/v1/assets/hosts/', {
      name: `win-${tag}`,
      address: '127.0.0.1',
      platform: 'Windows',
      protocols: [
        { name: 'ssh', port: sshd.port },
        { name: 'rdp', port: 3389 },
      ],
    });
    await apiPost(admin)(ACCOUNTS, {
      asset: win.id,
      username: 'Administrator',
      secret: 'Admin-pass-1',
      privileged: true,
    });
    const k = await apiPost(admin)(ACCOUNTS, {
      asset: win.id,
      username: 'winkey',
      secret_type: 'ssh_key',
      secret: ssh2.utils.generateKeyPairSync('ed25519').private,
      push_now: true,
    });
    expect((await recordOf(`asset=${win.id}`, k.id)).error).toMatch(/Windows assets refuse an SSH key push/);
  }, 90_000);

  it('creates a MariaDB user with CREATE USER and signs in with it', async () => {
    const db = await apiPost(admin)('/api/v1/assets/databases/', {
      name: `pmdb-${tag}`,
      address: '127.0.0.1',
      platform: 'MariaDB',
      protocols: [{ name: 'mariadb', port: 3306 }],
    });
    // The machine's root has no password: the vault's privileged account says so with an empty-looking one.
    await t.deps.database.db
      .insertInto('accounts_account')
      .values({
        id: crypto.randomUUID(),
        name: 'root',
        username: 'root',
        secret_type: 'password',
        secret: t.deps.secretBox.encrypt(''),
        passphrase: null,
        spec_info: '{}',
        privileged: true,
        is_active: true,
        asset_id: db.id,
        su_from_id: null,
        version: 1,
        source: 'local',
        source_id: null,
        connectivity: '-',
        date_verified: null,
        params: '{}',
        comment: '',
        org_id: db.org_id,
        created_by: 'test',
        updated_by: 'test',
        date_created: new Date().toISOString(),
        date_updated: new Date().toISOString(),
      })
      .execute();
    const a = await apiPost(admin)(ACCOUNTS, {
      asset: db.id,
      username: names.db,
      secret: 'Db-pushed-3',
      push_now: true,
    });
    const r = await recordOf(`asset=${db.id}`, a.id);
    expect(r.status, r.error).toBe('success');
    const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: names.db, password: 'Db-pushed-3' });
    await c.end();
  }, 90_000);
});
