import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  createPeerApp,
  createTestApp,
  type SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { osUser, startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../test-support/smtpPeer.ts';
import { sshLogin } from '../accounts/verify.ts';
import { setAutomationFaults } from './changeSecretRun.ts';

/**
 * Change secret on a real host (issue 30, item 1): a real OpenSSH whose users are throw-away users
 * of this machine (changed with the host's own chpasswd and authorized_keys by the privileged root
 * account; removed after), the "never lose a password" protocol end to end, including a run killed
 * between the host change and the verification.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let peer: SmtpPeer;
let host: Json;
const users: ReturnType<typeof osUser>[] = [];
const CS = '/api/v1/accounts/change-secret-automations/';
const EXEC = '/api/v1/accounts/change-secret-executions/';

const vaultSecret = async (accountId: string) => {
  const a = await t.deps.database.db
    .selectFrom('accounts_account')
    .select(['secret', 'version'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { secret: t.deps.secretBox.decrypt(a.secret!), version: Number(a.version) };
};
const login = (username: string, cred: { password?: string; privateKey?: string }) =>
  sshLogin({ host: '127.0.0.1', port: sshd.port, username, ...cred });

async function run(c: SessionClient, automation: string): Promise<Json> {
  const res = await c.post(EXEC, { automation });
  expect(res.statusCode, res.body).toBe(201);
  const task = res.json().task as string;
  await expect
    .poll(async () => (await c.get(`${EXEC}${task}/`)).json().status?.value, { timeout: 60_000, interval: 200 })
    .toMatch(/success|failed/);
  return (await c.get(`${EXEC}${task}/`)).json();
}
const records = async (c: SessionClient, execution: string) =>
  (await c.get(`/api/v1/accounts/change-secret-records/?execution_id=${execution}`)).json() as Json[];

async function plan(body: Json): Promise<Json> {
  const res = await admin.post(CS, { is_periodic: false, assets: [host.id], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

beforeAll(async () => {
  for (let i = 0; i < 4; i++) users.push(osUser(`Old-pass-${i}a`));
  sshd = await startSshd({ osUsers: users.map((u) => u.username), config: [`DenyUsers ${users[3]!.username}`] });
  [t, peer] = await Promise.all([createTestApp(), startSmtpPeer()]);
  admin = await adminClient(t.app);
  const post = apiPost(admin);
  const mail = await admin.patch('/api/v1/settings/setting/?category=email', {
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: peer.port,
  });
  expect(mail.statusCode, mail.body).toBe(200);
  host = await linuxHost(post, sshd.port);
  await post(ACCOUNTS, {
    asset: host.id,
    username: 'root',
    secret_type: 'ssh_key',
    secret: sshd.privateKey,
    privileged: true,
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await peer?.close();
  sshd?.stop();
  for (const u of users) u.remove();
});

describe('change secret on a Linux host', () => {
  it('changes a password to a random one by the rules, verifies it and keeps the old one in the history', async () => {
    const u = users[0]!;
    const account = await apiPost(admin)(ACCOUNTS, { asset: host.id, username: u.username, secret: u.password });
    const me = (await admin.get('/api/v1/users/profile/')).json().id as string;
    const a = await plan({
      name: 'cs-random',
      accounts: [u.username],
      secret_strategy: 'random',
      password_rules: { length: 24, symbol_set: '!@#' },
      recipients: [me],
    });
    expect(a).toMatchObject({ type: 'change_secret', periodic_display: '-', executed_amount: 0 });
    expect(a.secret).toBeUndefined();
    const e = await run(admin, a.id);
    expect(e).toMatchObject({
      status: { value: 'success' },
      trigger: { value: 'manual' },
      snapshot: { name: 'cs-random' },
    });
    const r = (await records(admin, e.id))[0]!;
    expect(r).toMatchObject({ is_success: true, status: 'success', state: 'new', account: { id: account.id } });
    expect(JSON.stringify(r)).not.toMatch(/gh1\$/);
    const now = await vaultSecret(account.id);
    expect(now.secret).toHaveLength(24);
    expect(now.secret).toMatch(/^[A-Za-z0-9!@#]+$/);
    expect(now.version).toBe(2);
    expect(await login(u.username, { password: now.secret })).toBeUndefined();
    expect(await login(u.username, { password: u.password })).toBeDefined();
    const history = await t.deps.database.db
      .selectFrom('accounts_accounthistory')
      .select(['version', 'secret'])
      .where('account_id', '=', account.id)
      .orderBy('version')
      .execute();
    expect(history.map((h) => t.deps.secretBox.decrypt(h.secret!))).toEqual([u.password, now.secret]);
    expect((await admin.get(`${CS}${a.id}/`)).json().executed_amount).toBe(1);
    // The recipient is told the result, without any secret.
    const messages = (await admin.get('/api/v1/notifications/site-messages/?has_read=false')).json() as Json[];
    const notice = messages.find((m) => String(m.content?.subject ?? m.subject).includes('cs-random'));
    expect(JSON.stringify(notice)).toContain('1 account(s) changed');
    expect(JSON.stringify(notice)).not.toContain(now.secret);
    // And by mail, through the SMTP server of the mail settings.
    const myMail = (await admin.get('/api/v1/users/profile/')).json().email as string;
    await expect.poll(() => peer.mails.find((m) => m.subject.includes('cs-random')), { timeout: 60_000 }).toBeDefined();
    const mailed = peer.mails.find((m) => m.subject.includes('cs-random'))!;
    expect(mailed.to).toEqual([myMail]);
    expect(mailed.text).toContain('1 account(s) changed and verified, 0 failed');
    expect(mailed.raw).not.toContain(now.secret);
  }, 90_000);

  it('changes an SSH key by each strategy: add keeps the old key, set_jms replaces only its own, set empties the file', async () => {
    const u = users[1]!;
    const home = execFileSync('getent', ['passwd', u.username]).toString().split(':')[5]!;
    const original = ssh2.utils.generateKeyPairSync('ed25519');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'authorized_keys'), `${original.public}\n`);
    execFileSync('chown', ['-R', `${u.username}:`, path.join(home, '.ssh')]);
    const account = await apiPost(admin)(ACCOUNTS, {
      asset: host.id,
      name: `${u.username}-key`,
      username: u.username,
      secret_type: 'ssh_key',
      secret: original.private,
    });
    const keys = () =>
      fs
        .readFileSync(path.join(home, '.ssh', 'authorized_keys'), 'utf8')
        .trim()
        .split('\n');
    for (const strategy of ['add', 'set_jms', 'set'] as const) {
      const a = await plan({
        name: `cs-key-${strategy}`,
        accounts: [u.username],
        secret_type: 'ssh_key',
        secret_strategy: 'random',
        ssh_key_change_strategy: strategy,
      });
      const e = await run(admin, a.id);
      expect(e.status.value).toBe('success');
      const now = await vaultSecret(account.id);
      expect(await login(u.username, { privateKey: now.secret })).toBeUndefined();
      const originalWorks = (await login(u.username, { privateKey: original.private })) === undefined;
      if (strategy === 'add') expect(keys()).toHaveLength(2);
      // set_jms took out the key the add put, and kept the original (not Gatehouse's).
      if (strategy === 'set_jms') expect(keys()).toHaveLength(2);
      expect(originalWorks).toBe(strategy !== 'set');
      if (strategy === 'set') expect(keys()).toHaveLength(1);
    }
    const fingerprint = JSON.parse(
      (
        await t.deps.database.db
          .selectFrom('accounts_account')
          .select('spec_info')
          .where('id', '=', account.id)
          .executeTakeFirstOrThrow()
      ).spec_info,
    ).ssh_key_fingerprint;
    expect(fingerprint).toMatch(/^SHA256:/);
  }, 120_000);

  it('keeps the old secret when the privileged account cannot make the change, and says so', async () => {
    const u = users[2]!;
    const broken = await linuxHost(apiPost(admin), sshd.port);
    await apiPost(admin)(ACCOUNTS, {
      asset: broken.id,
      username: 'root',
      secret: 'not-roots-password',
      privileged: true,
    });
    const account = await apiPost(admin)(ACCOUNTS, { asset: broken.id, username: u.username, secret: u.password });
    const a = await plan({ name: 'cs-wrong-priv', assets: [broken.id], accounts: [u.username], secret: 'New-pass-2b' });
    const e = await run(admin, a.id);
    expect(e.status.value).toBe('failed');
    const r = (await records(admin, e.id))[0]!;
    expect(r).toMatchObject({ is_success: false, state: 'old' });
    expect(r.error).toMatch(/change failed/i);
    expect((await vaultSecret(account.id)).secret).toBe(u.password);
    expect(await login(u.username, { password: u.password })).toBeUndefined();
  }, 90_000);

  it('records that neither secret opens the host when the verification fails, keeping both', async () => {
    const u = users[3]!; // DenyUsers: chpasswd works, logins never do
    const account = await apiPost(admin)(ACCOUNTS, { asset: host.id, username: u.username, secret: u.password });
    const a = await plan({ name: 'cs-verify-fails', accounts: [u.username], secret: 'New-pass-3c' });
    const e = await run(admin, a.id);
    expect(e.status.value).toBe('failed');
    const r = (await records(admin, e.id))[0]!;
    expect(r).toMatchObject({ is_success: false, state: 'unknown' });
    expect(r.error).toMatch(/verifying it failed/);
    expect((await vaultSecret(account.id)).secret).toBe(u.password);
    const stored = await t.deps.database.db
      .selectFrom('accounts_automationrecord')
      .select(['new_secret', 'old_secret'])
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    expect(t.deps.secretBox.decrypt(stored.new_secret!)).toBe('New-pass-3c');
    expect(t.deps.secretBox.decrypt(stored.old_secret!)).toBe(u.password);
  }, 90_000);

  it('refuses bad plans with a message on the field, saving nothing', async () => {
    const base = { name: 'bad', accounts: ['root'], assets: [host.id], secret_strategy: 'random' };
    const bad: [Json, string, RegExp][] = [
      [{ password_rules: { length: 5 } }, 'password_rules', /between 6 and 30/],
      [{ password_rules: { length: 31 } }, 'password_rules', /between 6 and 30/],
      [{ password_rules: { length: 12, symbol_set: '!"\'' } }, 'password_rules', /cannot be used/],
      [{ secret_strategy: 'specific', secret_type: 'ssh_key', secret: 'not a key' }, 'secret', /./],
      [{ assets: [] }, 'assets', /at least one asset/],
      [{ crontab: '* * * *', is_periodic: true }, 'crontab', /5 fields/],
      [{ interval: 0, is_periodic: true }, 'interval', /1 to 65535/],
      [{ accounts: [] }, 'accounts', /at least one/],
      [{ accounts: ['a;reboot'] }, 'accounts', /username/],
      [{ secret_strategy: 'specific' }, 'secret', /required/],
      [{ recipients: ['00000000-0000-0000-0000-000000000000'] }, 'recipients', /Not users of this organisation/],
    ];
    for (const [body, field, msg] of bad) {
      const res = await admin.post(CS, { ...base, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()[field]?.join(' '), JSON.stringify(body)).toMatch(msg);
    }
    const zh = await admin.post(CS, { ...base, password_rules: { length: 5 } }, { 'accept-language': 'zh-CN' });
    expect(zh.json().password_rules[0]).toContain('6 到 30');
    expect((await admin.get(`${CS}?name=bad`)).json()).toHaveLength(0);
    expect((await admin.post(EXEC, { automation: 'nope' })).statusCode).toBe(400);
  });

  // Last: it kills this instance's engine.
  it('settles a run killed between the host change and the verification: the vault opens the host', async () => {
    const u = users[0]!;
    const account = await t.deps.database.db
      .selectFrom('accounts_account')
      .select('id')
      .where('asset_id', '=', host.id)
      .where('username', '=', u.username)
      .executeTakeFirstOrThrow();
    const before = await vaultSecret(account.id);
    const a = await plan({ name: 'cs-killed', accounts: [u.username], secret: 'Killed-pass-9z' });
    let killedAt = '';
    setAutomationFaults(t.app, {
      async afterChange(recordId) {
        killedAt = recordId;
        t.app.jobEngine.halt(); // the process "dies" here: nothing more of this run is written
      },
    });
    const res = await admin.post(EXEC, { automation: a.id });
    const task = res.json().task as string;
    await expect.poll(() => killedAt, { timeout: 60_000 }).not.toBe('');
    const rec = () =>
      t.deps.database.db
        .selectFrom('accounts_automationrecord')
        .selectAll()
        .where('id', '=', killedAt)
        .executeTakeFirstOrThrow();
    expect((await rec()).status).toBe('changed');
    // The host has the new password, the vault still the old one: this is the moment passwords get lost.
    expect(await login(u.username, { password: 'Killed-pass-9z' })).toBeUndefined();
    expect((await vaultSecret(account.id)).secret).toBe(before.secret);
    // The next instance (a restart: its in-memory cache holds no heartbeat of the dead one) settles it.
    const peer = await createPeerApp(t);
    try {
      await expect.poll(async () => (await rec()).status, { timeout: 60_000 }).toBe('success');
      expect((await rec()).state).toBe('new');
      const after = await vaultSecret(account.id);
      expect(after.secret).toBe('Killed-pass-9z');
      expect(after.version).toBe(before.version + 1);
      expect(await login(u.username, { password: after.secret })).toBeUndefined();
      const e = await t.deps.database.db
        .selectFrom('ops_jobexecution')
        .selectAll()
        .where('id', '=', task)
        .executeTakeFirstOrThrow();
      expect(e.status).toBe('failed');
    } finally {
      await peer.close();
    }
  }, 120_000);
});
