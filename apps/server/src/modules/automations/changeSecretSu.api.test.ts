import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { osUser, startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { sshLogin } from '../accounts/verify.ts';

/**
 * Change secret of an account reached by `su` (issue 30, item 1, `su_from`): a real OpenSSH that
 * refuses the account itself (DenyUsers), a platform switching with `su`, no privileged account.
 * The run logs in as the account switched from, `su`s to the account and changes its password with
 * its own `passwd`; the test then switches with the new password by itself.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let from: ReturnType<typeof osUser>;
let target: ReturnType<typeof osUser>;
/** Reached by su from `from` signing in with a key. */
let target2: ReturnType<typeof osUser>;
/** A key account reached by su from root (signing in with a key). */
let keyed: ReturnType<typeof osUser>;
/** A password account reached by su from root, which switches without a prompt. */
let fromRoot: ReturnType<typeof osUser>;
const EXEC = '/api/v1/accounts/change-secret-executions/';

beforeAll(async () => {
  from = osUser('From-pass-1a');
  target = osUser('Target-old-1a');
  target2 = osUser('Target-old-2b');
  keyed = osUser('Keyed-unused-3c');
  fromRoot = osUser('Root-old-4d');
  sshd = await startSshd({
    osUsers: [from.username, target.username, target2.username, keyed.username, fromRoot.username],
    config: [`DenyUsers ${target.username} ${target2.username} ${fromRoot.username}`],
  });
  t = await createTestApp();
  admin = await adminClient(t.app);
  const platform = await admin.post('/api/v1/assets/platforms/', {
    name: 'Linux su',
    category: 'host',
    type: 'linux',
    su_enabled: true,
    su_method: 'su',
    protocols: [{ name: 'ssh', port: 22 }],
  });
  expect(platform.statusCode, platform.body).toBe(201);
}, 60_000);
afterAll(async () => {
  await t?.close();
  sshd?.stop();
  for (const u of [from, target, target2, keyed, fromRoot]) u?.remove();
});

/** Logs in as `from` and switches to `to` with `password`, as a person would; answers who it became. */
function switchAs(password: string, to = target): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = new ssh2.Client();
    let out = '';
    c.once('error', reject);
    c.once('ready', () =>
      c.shell({ term: 'dumb' }, (err, ch) => {
        if (err) return reject(err);
        let step = 0;
        ch.on('data', (d: Buffer) => {
          out += d.toString();
          if (step === 0 && /assword:\s*$/.test(out)) {
            step = 1;
            out = '';
            ch.write(`${password}\n`);
          }
          // su empties what was typed ahead: ask who we are once a shell prompts again.
          if (step === 1 && /([$#]\s*$)|failure/i.test(out)) {
            step = 2;
            ch.write(`printf 'who-%s-end\\n' "$(id -un)"\n`);
          }
          const m = /who-([a-z0-9]+)-end/.exec(out);
          if (m) {
            c.end();
            resolve(m[1]!);
          }
        });
        // A shell that ends without saying who it is fails at once with what it printed (no timer:
        // one that never answers is ended by the test's own timeout).
        ch.once('close', () => reject(new Error(`no answer: ${out}`)));
        ch.write(`su - ${to.username}\n`);
      }),
    );
    c.connect({ host: '127.0.0.1', port: sshd.port, username: from.username, password: from.password });
  });
}

/** Runs the plan once; its one record must be a success with the new secret in the vault. */
async function runPlan(planId: string): Promise<void> {
  const res = await admin.post(EXEC, { automation: planId });
  expect(res.statusCode, res.body).toBe(201);
  const task = res.json().task as string;
  await expect
    .poll(async () => (await admin.get(`${EXEC}${task}/`)).json().status?.value, { timeout: 90_000, interval: 200 })
    .toMatch(/success|failed/);
  const records = (await admin.get(`/api/v1/accounts/change-secret-records/?execution_id=${task}`)).json() as Json[];
  expect(records).toHaveLength(1);
  expect(records[0], JSON.stringify(records[0])).toMatchObject({ is_success: true, state: 'new' });
}

/** Writes `username`'s ~/.ssh/authorized_keys with `publicKey` (owned by the user); answers its path. */
function authorize(username: string, publicKey: string): string {
  const home = execFileSync('getent', ['passwd', username]).toString().split(':')[5]!;
  const file = path.join(home, '.ssh', 'authorized_keys');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${publicKey}\n`);
  execFileSync('chown', ['-R', `${username}:`, path.dirname(file)]);
  return file;
}

async function vaultSecret(accountId: string): Promise<string> {
  const row = await t.deps.database.db
    .selectFrom('accounts_account')
    .select('secret')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return t.deps.secretBox.decrypt(row.secret!);
}

describe('change secret through su', () => {
  it('switches from another account and changes the password with passwd; the new one opens the switch', async () => {
    const post = apiPost(admin);
    const host = await linuxHost(post, sshd.port, { platform: 'Linux su' });
    const fromAccount = await post(ACCOUNTS, { asset: host.id, username: from.username, secret: from.password });
    const account = await post(ACCOUNTS, {
      asset: host.id,
      username: target.username,
      secret: target.password,
      su_from: fromAccount.id,
    });
    // The account cannot sign in by itself: only the switch reaches it.
    expect(
      await sshLogin({ host: '127.0.0.1', port: sshd.port, username: target.username, password: target.password }),
    ).toBeDefined();
    expect(await switchAs(target.password)).toBe(target.username);

    const plan = await post('/api/v1/accounts/change-secret-automations/', {
      name: 'cs-su',
      accounts: [target.username],
      assets: [host.id],
      secret_type: 'password',
      secret_strategy: 'specific',
      secret: 'Qz7-changed-by-su-Wx4',
      is_periodic: false,
    });
    await runPlan(plan.id);
    expect(await vaultSecret(account.id)).toBe('Qz7-changed-by-su-Wx4');
    expect(await switchAs('Qz7-changed-by-su-Wx4')).toBe(target.username);
    expect(await switchAs(target.password)).toBe(from.username);
  }, 120_000);

  it('switches from an account that signs in with an SSH key', async () => {
    const post = apiPost(admin);
    const host = await linuxHost(post, sshd.port, { platform: 'Linux su' });
    // `from` signs in with a key of its own.
    const fromKey = ssh2.utils.generateKeyPairSync('ed25519');
    authorize(from.username, fromKey.public);
    const fromAccount = await post(ACCOUNTS, {
      asset: host.id,
      username: from.username,
      secret_type: 'ssh_key',
      secret: fromKey.private,
    });
    const account = await post(ACCOUNTS, {
      asset: host.id,
      username: target2.username,
      secret: target2.password,
      su_from: fromAccount.id,
    });
    const plan = await post('/api/v1/accounts/change-secret-automations/', {
      name: 'cs-su-key-login',
      accounts: [target2.username],
      assets: [host.id],
      secret_type: 'password',
      secret_strategy: 'specific',
      secret: 'Kp4-switched-by-key-Zr8',
      is_periodic: false,
    });
    await runPlan(plan.id);
    expect(await vaultSecret(account.id)).toBe('Kp4-switched-by-key-Zr8');
    expect(await switchAs('Kp4-switched-by-key-Zr8', target2)).toBe(target2.username);
    expect(await switchAs(target2.password, target2)).toBe(from.username);
  }, 120_000);

  it("sets a key account's authorized_keys as the account itself after switching from root", async () => {
    const post = apiPost(admin);
    const host = await linuxHost(post, sshd.port, { platform: 'Linux su' });
    // root signs in with the fixture's key, not as a privileged account: only the switch is used.
    const rootKey = await post(ACCOUNTS, {
      asset: host.id,
      username: 'root',
      secret_type: 'ssh_key',
      secret: sshd.privateKey,
    });
    const oldKey = ssh2.utils.generateKeyPairSync('ed25519');
    const newKey = ssh2.utils.generateKeyPairSync('ed25519');
    const file = authorize(keyed.username, oldKey.public);
    const account = await post(ACCOUNTS, {
      asset: host.id,
      username: keyed.username,
      secret_type: 'ssh_key',
      secret: oldKey.private,
      su_from: rootKey.id,
    });
    const login = (privateKey: string) =>
      sshLogin({ host: '127.0.0.1', port: sshd.port, username: keyed.username, privateKey });
    expect(await login(oldKey.private)).toBeUndefined();
    const plan = await post('/api/v1/accounts/change-secret-automations/', {
      name: 'cs-su-key',
      accounts: [keyed.username],
      assets: [host.id],
      secret_type: 'ssh_key',
      secret_strategy: 'specific',
      secret: newKey.private,
      ssh_key_change_strategy: 'set',
      is_periodic: false,
    });
    await runPlan(plan.id);
    expect((await vaultSecret(account.id)).trim()).toBe(newKey.private.trim());
    expect(await login(newKey.private)).toBeUndefined();
    // `set`: the old key is gone; the file is the account's own.
    expect(await login(oldKey.private)).toBeDefined();
    expect(fs.readFileSync(file, 'utf8')).not.toContain(oldKey.public.split(' ')[1]);
    expect(fs.statSync(file).uid).toBe(Number(execFileSync('id', ['-u', keyed.username]).toString().trim()));
  }, 120_000);

  it('switches from root signing in with a key (su asks nothing) and proves the new password by a switch of the account to itself', async () => {
    const post = apiPost(admin);
    const host = await linuxHost(post, sshd.port, { platform: 'Linux su' });
    const rootKey = await post(ACCOUNTS, {
      asset: host.id,
      username: 'root',
      secret_type: 'ssh_key',
      secret: sshd.privateKey,
    });
    const account = await post(ACCOUNTS, {
      asset: host.id,
      username: fromRoot.username,
      secret: fromRoot.password,
      su_from: rootKey.id,
    });
    const plan = await post('/api/v1/accounts/change-secret-automations/', {
      name: 'cs-su-root',
      accounts: [fromRoot.username],
      assets: [host.id],
      secret_type: 'password',
      secret_strategy: 'specific',
      secret: 'Rt6-from-root-Yv2',
      is_periodic: false,
    });
    await runPlan(plan.id);
    expect(await vaultSecret(account.id)).toBe('Rt6-from-root-Yv2');
    // `from` (not root) must give the password: the new one opens the switch, the old one no more.
    expect(await switchAs('Rt6-from-root-Yv2', fromRoot)).toBe(fromRoot.username);
    expect(await switchAs(fromRoot.password, fromRoot)).toBe(from.username);
  }, 120_000);
});
