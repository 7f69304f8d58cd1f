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
const EXEC = '/api/v1/accounts/change-secret-executions/';

beforeAll(async () => {
  from = osUser('From-pass-1a');
  target = osUser('Target-old-1a');
  sshd = await startSshd({ osUsers: [from.username, target.username], config: [`DenyUsers ${target.username}`] });
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 60_000);
afterAll(async () => {
  await t?.close();
  sshd?.stop();
  from?.remove();
  target?.remove();
});

/** Logs in as `from` and switches to `target` with `password`, as a person would; answers who it became. */
function switchAs(password: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = new ssh2.Client();
    let out = '';
    const timer = setTimeout(() => (c.end(), reject(new Error(`no answer: ${out}`))), 30_000);
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
            clearTimeout(timer);
            c.end();
            resolve(m[1]!);
          }
        });
        ch.write(`su - ${target.username}\n`);
      }),
    );
    c.connect({ host: '127.0.0.1', port: sshd.port, username: from.username, password: from.password });
  });
}

describe('change secret through su', () => {
  it('switches from another account and changes the password with passwd; the new one opens the switch', async () => {
    const post = apiPost(admin);
    const platform = await admin.post('/api/v1/assets/platforms/', {
      name: 'Linux su',
      category: 'host',
      type: 'linux',
      su_enabled: true,
      su_method: 'su',
      protocols: [{ name: 'ssh', port: 22 }],
    });
    expect(platform.statusCode, platform.body).toBe(201);
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
    const res = await admin.post(EXEC, { automation: plan.id });
    expect(res.statusCode, res.body).toBe(201);
    const task = res.json().task as string;
    await expect
      .poll(async () => (await admin.get(`${EXEC}${task}/`)).json().status?.value, { timeout: 90_000, interval: 200 })
      .toMatch(/success|failed/);
    const records = (await admin.get(`/api/v1/accounts/change-secret-records/?execution_id=${task}`)).json() as Json[];
    expect(records).toHaveLength(1);
    expect(records[0], JSON.stringify(records[0])).toMatchObject({ is_success: true, state: 'new' });
    const row = await t.deps.database.db
      .selectFrom('accounts_account')
      .select('secret')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(t.deps.secretBox.decrypt(row.secret!)).toBe('Qz7-changed-by-su-Wx4');
    expect(await switchAs('Qz7-changed-by-su-Wx4')).toBe(target.username);
    expect(await switchAs(target.password)).toBe(from.username);
  }, 120_000);
});
