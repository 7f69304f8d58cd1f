import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makeHost } from '../../../../test-support/accounts.ts';
import { codeAt } from '../../../../test-support/auth.ts';
import { newOtpSecret } from '../../authentication/mfa/otp.ts';
import { makePerm, makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { put, T } from '../../../../test-support/tickets.ts';
import { SshClient, userKeyPair, nativeSshApp } from '../../../../test-support/sshClients.ts';

/**
 * The native SSH server driven by the real OpenSSH client (`ssh -tt` through pipes, the password
 * and OTP code given by SSH_ASKPASS) against a real sshd asset: sign-in, the menu, one-command
 * login, and what the gateway records.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let port: number;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any; key: any };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let hidden: any;

beforeAll(async () => {
  ({ sshd, port, t, admin, target } = await nativeSshApp());
  hidden = await makeHost(admin, sshd.port);
  const sam = await makeUser(admin, 'sam');
  await makePerm(admin, { users: [sam.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'] });
  const otto = await makeUser(admin, 'otto');
  await makePerm(admin, { users: [otto.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'] });
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
const loginLogs = async (username: string): Promise<any[]> =>
  t.deps.database.db.selectFrom('audits_userloginlog').selectAll().where('username', '=', username).execute();

async function commandsOfLastSession(
  username: string,
): Promise<{ session: { id: string; login_from: unknown }; inputs: string[] }> {
  const sessions = (await admin.get(`/api/v1/terminal/sessions/?login_from=ST&order=-date_start`)).json() as {
    id: string;
    login_from: unknown;
    user: string;
  }[];
  const session = sessions.find((s) => s.user.includes(`(${username})`))!;
  if (!session) throw new Error(JSON.stringify(sessions).slice(0, 600));
  const commands = (await admin.get(`/api/v1/terminal/commands/?session_id=${session.id}`)).json() as {
    input: string;
  }[];
  return { session, inputs: commands.map((c) => c.input) };
}

describe('native SSH access', () => {
  it('signs in with the password, lists only granted assets, picks an account and runs a command', async () => {
    const c = new SshClient(port, 'sam', { password: PASSWORD });
    await c.waitFor('Opt> ');
    expect(c.text).toContain('Welcome to Gatehouse');
    await c.line('p', 'Opt> ');
    expect(c.text).toContain(target.host.name);
    expect(c.text).not.toContain(hidden.name);
    // Search by part of the name: one match opens it; two accounts: the picker.
    await c.line(target.host.name.slice(0, 8), 'Account> ');
    expect(c.text).toContain(`${sshd.username}-key`);
    await c.line('1', 'gh$ ');
    await c.line('echo menu-$((40+2))', 'menu-42');
    await c.line('exit', 'Opt> ');
    await c.line('h', 'Opt> ');
    await c.line('q');
    expect(await c.exited).toBe(0);
    const { session, inputs } = await commandsOfLastSession('sam');
    expect(session.login_from).toMatchObject({ value: 'ST' });
    expect(inputs).toContain('echo menu-$((40+2))');
    const logs = await loginLogs('sam');
    expect(logs.some((l) => Boolean(l.status) && l.type === 'T')).toBe(true);
  }, 40_000);

  it('asks the username and password of @INPUT at the prompt, the password unechoed', async () => {
    const ivy = await makeUser(admin, 'ivy');
    await makePerm(admin, { users: [ivy.id], assets: [target.host.id], accounts: ['@INPUT'], actions: ['connect'] });
    const c = new SshClient(port, 'ivy', { password: PASSWORD });
    await c.waitFor('Opt> ');
    await c.line(target.host.name, 'Username: ');
    await c.line(sshd.username, 'Password: ');
    const from = c.text.length;
    await c.line(sshd.password, 'gh$ ');
    expect(c.text.slice(from)).not.toContain(sshd.password);
    await c.line('echo typed-$((40+2))', 'typed-42');
    await c.line('exit', 'Opt> ');
    expect((await commandsOfLastSession('ivy')).inputs).toContain('echo typed-$((40+2))');
    // A wrong password: the failure is said and the menu comes back.
    await c.line(target.host.name, 'Username: ');
    await c.line(sshd.username, 'Password: ');
    await c.line('not-the-password', 'Opt> ');
    expect(c.text).toMatch(/The connection failed/);
    await c.line('q');
    expect(await c.exited).toBe(0);
  }, 40_000);

  it('logs straight into <user>@<account>@<asset> for scripts', async () => {
    const c = new SshClient(port, `sam@${target.key.name}@${target.host.name}`, { password: PASSWORD });
    await c.waitFor('gh$ ');
    await c.line('echo direct-$((6*7))', 'direct-42');
    await c.line('exit');
    expect(await c.exited).toBe(0);
    expect(c.text).not.toContain('Opt> ');
    const { session, inputs } = await commandsOfLastSession('sam');
    expect(session.login_from).toMatchObject({ value: 'ST' });
    expect(inputs).toContain('echo direct-$((6*7))');
  }, 30_000);

  it('gives the asset the PTY size of the client and follows its resizes', async () => {
    // An ssh2 client here: the OpenSSH client on pipes cannot change its window.
    const client = new ssh2.Client();
    await new Promise<void>((resolve, reject) =>
      client
        .once('ready', () => resolve())
        .once('error', reject)
        .connect({
          host: '127.0.0.1',
          port,
          username: `sam@${target.key.name}@${target.host.name}`,
          password: PASSWORD,
        }),
    );
    const stream = await new Promise<ssh2.ClientChannel>((resolve, reject) =>
      client.shell({ term: 'xterm', cols: 101, rows: 33 }, (err, ch) => (err ? reject(err) : resolve(ch))),
    );
    let text = '';
    stream.on('data', (d: Buffer) => (text += d.toString('utf8')));
    const waitFor = async (re: RegExp) => {
      for (let i = 0; !re.test(text); i++) {
        if (i > 500) throw new Error(`no ${String(re)} in ${text}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const type = async (line: string) => {
      for (const k of [...line, '\r']) {
        stream.write(k);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await waitFor(/gh\$ /);
    await type('stty size');
    await waitFor(/\b33 101\r\n/);
    stream.setWindow(40, 120, 0, 0);
    await new Promise((r) => setTimeout(r, 200));
    await type('stty size');
    await waitFor(/\b40 120\r\n/);
    client.end();
  }, 30_000);

  it('refuses an asset that is not granted in a direct login', async () => {
    const c = new SshClient(port, `sam@${hidden.name}`, { password: PASSWORD });
    expect(await c.exited).not.toBe(0);
    expect(c.err + c.text).toContain('No asset or account matches');
  }, 20_000);

  it('applies login-asset and connect-method rules as the web terminal does', async () => {
    const rita = await makeUser(admin, 'rita');
    await makePerm(admin, { users: [rita.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'] });
    const direct = () =>
      new SshClient(port, `rita@${target.password.name}@${target.host.name}`, { password: PASSWORD });
    const rule = async (url: string, body: Record<string, unknown>) => {
      const res = await admin.post(url, {
        name: `rita-${url.length}-${body.action}`,
        users: { type: 'ids', ids: [rita.id] },
        ...body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const loginAsset = { assets: { type: 'all' }, accounts: ['@ALL'] };
    const reject = await rule('/api/v1/acls/login-asset-acls/', { ...loginAsset, action: 'reject' });
    let c = direct();
    expect(await c.exited).not.toBe(0);
    expect(c.err + c.text).toContain('Connection refused by a login asset rule.');
    await admin.request({ method: 'DELETE', url: `/api/v1/acls/login-asset-acls/${reject}/` });
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    const review = await rule('/api/v1/acls/login-asset-acls/', {
      ...loginAsset,
      action: 'review',
      reviewers: [adminId],
    });
    // Review: a script's exec is refused with the ticket's link (the interactive wait is tested below).
    c = new SshClient(
      port,
      `rita@${target.password.name}@${target.host.name}`,
      { password: PASSWORD },
      { command: 'id' },
    );
    expect(await c.exited).not.toBe(0);
    expect(c.err).toContain("needs a reviewer's approval");
    expect(c.err).toMatch(/\/ui\/tickets\/tickets\/[0-9a-f-]{36}\?type=login_asset_confirm/);
    await admin.request({ method: 'DELETE', url: `/api/v1/acls/login-asset-acls/${review}/` });
    const method = await rule('/api/v1/acls/connect-method-acls/', {
      connect_methods: ['ssh_client'],
      action: 'reject',
    });
    c = direct();
    expect(await c.exited).not.toBe(0);
    expect(c.err + c.text).toContain('This connect method is not allowed for you.');
    await admin.request({ method: 'DELETE', url: `/api/v1/acls/connect-method-acls/${method}/` });
    // No rule left: the same login runs.
    c = direct();
    await c.waitFor('gh$ ');
    await c.line('exit');
    expect(await c.exited).toBe(0);
  }, 60_000);

  it('signs in with the public key of the user, and refuses another key', async () => {
    const mine = userKeyPair();
    const other = userKeyPair();
    await t.deps.database.db
      .updateTable('users_user')
      .set({ public_key: mine.publicKey })
      .where('username', '=', 'sam')
      .execute();
    const refused = new SshClient(port, 'sam', { password: '', identity: other.file });
    expect(await refused.exited).toBe(255);
    const c = new SshClient(port, `sam@${target.password.name}@${target.host.address}`, {
      password: '',
      identity: mine.file,
    });
    await c.waitFor('gh$ ');
    await c.line('echo key-ok', 'key-ok');
    await c.line('exit');
    expect(await c.exited).toBe(0);
    const logs = await loginLogs('sam');
    expect(logs.some((l) => Boolean(l.status) && l.backend === 'publickey')).toBe(true);
  }, 30_000);

  it('refuses a wrong password, counts it and logs it', async () => {
    const before = (await loginLogs('sam')).length;
    const c = new SshClient(port, 'sam', { password: 'wrong-password' });
    expect(await c.exited).toBe(255);
    expect(c.text).not.toContain('Opt> ');
    const failed = (await loginLogs('sam')).slice(before);
    const refused = failed.filter((l) => !l.status && l.reason === 'password_failed' && l.type === 'T').length;
    expect(refused).toBeGreaterThan(0);
    // Counted by the same user lock as the web login (the client tried keyboard-interactive, then password).
    const limit = Number(await t.deps.settings.get('SECURITY_LOGIN_LIMIT_COUNT'));
    const web = await admin.post('/api/v1/authentication/tokens/', { username: 'sam', password: 'wrong-again' });
    expect(web.body, web.body).toContain(`try ${limit - refused - 1} times`);
  }, 20_000);

  it('asks an OTP code by keyboard-interactive when the user has MFA', async () => {
    const secret = newOtpSecret();
    await t.deps.database.db
      .updateTable('users_user')
      .set({ mfa_level: 1, otp_secret_key: t.deps.secretBox.encrypt(secret) })
      .where('username', '=', 'otto')
      .execute();
    const wrong = new SshClient(port, 'otto', { password: PASSWORD, otp: '000000' });
    expect(await wrong.exited).toBe(255);
    const c = new SshClient(port, 'otto', { password: PASSWORD, otp: codeAt(secret) });
    await c.waitFor('Opt> ');
    await c.line('q');
    expect(await c.exited).toBe(0);
    const logs = await loginLogs('otto');
    expect(logs.some((l) => !l.status && l.reason === 'mfa_failed')).toBe(true);
    expect(logs.some((l) => Boolean(l.status) && Number(l.mfa) === 1)).toBe(true);
  }, 30_000);
});

describe('native SSH under a login-asset review rule', () => {
  let wendy: Awaited<ReturnType<typeof makeUser>>;
  const ticketOf = (text: string) =>
    /\/ui\/tickets\/tickets\/([0-9a-f-]{36})\?type=login_asset_confirm/.exec(text)?.[1];
  const stateOf = async (id: string) =>
    await t.deps.database.db
      .selectFrom('tickets_ticket')
      .select(['state', 'meta'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    wendy = await makeUser(admin, 'wendy');
    await makePerm(admin, { users: [wendy.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'] });
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    const rule = await admin.post('/api/v1/acls/login-asset-acls/', {
      name: 'wendy waits',
      users: { type: 'ids', ids: [wendy.id] },
      assets: { type: 'all' },
      accounts: ['@ALL'],
      action: 'review',
      reviewers: [adminId],
    });
    expect(rule.statusCode, rule.body).toBe(201);
  });

  it('says a rejection and goes back to the menu; Ctrl+C gives the ticket up', async () => {
    const c = new SshClient(port, 'wendy', { password: PASSWORD });
    await c.waitFor('Opt> ');
    await c.line(target.host.name, 'Account> ');
    let from = c.text.length;
    await c.line(`${sshd.username}-key`, 'Ctrl+C gives up');
    const rejected = ticketOf(c.text.slice(from))!;
    expect((await put(admin, `${T}/apply-login-asset-tickets/${rejected}/reject/`)).statusCode).toBe(200);
    await c.waitFor('The reviewer rejected this login.', from);
    await c.waitFor('Opt> ', from);
    expect(c.text.slice(from)).not.toContain('gh$ ');
    // Back to the asset list.
    expect(c.text.slice(c.text.lastIndexOf('rejected this login'))).toMatch(/ID {2}\| Name[\s\S]*\| 127\.0\.0\.1/);

    await c.line(target.host.name, 'Account> ');
    from = c.text.length;
    await c.line(`${sshd.username}-key`, 'Ctrl+C gives up');
    const abandoned = ticketOf(c.text.slice(from))!;
    expect(abandoned).not.toBe(rejected);
    c.keys('\x03');
    await c.waitFor('You gave up: the ticket is closed.', from);
    await c.waitFor('Opt> ', from);
    expect((await stateOf(abandoned)).state).toBe('closed');
    // The operate log says who opened and who closed the ticket, from where, though no HTTP request did.
    const logs = await t.deps.database.db
      .selectFrom('audits_operatelog')
      .select(['user', 'action', 'remote_addr', 'diff'])
      .where('resource_id', '=', abandoned)
      .orderBy('datetime')
      .execute();
    expect(logs.map((l) => [l.user, l.action, l.remote_addr])).toEqual([
      [`wendy(wendy)`, 'create', '127.0.0.1'],
      [`wendy(wendy)`, 'update', '127.0.0.1'],
    ]);
    expect(JSON.parse(logs[1]!.diff)).toContainEqual({ field: 'state', before: 'pending', after: 'closed' });
    await c.line('q');
    expect(await c.exited).toBe(0);
  }, 40_000);

  it('gives the ticket up when the client leaves during the wait, and a one-command login exits non-zero on a rejection', async () => {
    const c = new SshClient(port, `wendy@${target.key.name}@${target.host.name}`, { password: PASSWORD });
    for (let i = 0; !ticketOf(c.err); i++) {
      if (i > 500) throw new Error(`no ticket link: ${c.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const id = ticketOf(c.err)!;
    expect((await put(admin, `${T}/apply-login-asset-tickets/${id}/reject/`)).statusCode).toBe(200);
    expect(await c.exited).toBe(1);
    expect(c.err).toContain('The reviewer rejected this login.');

    const gone = new SshClient(port, `wendy@${target.key.name}@${target.host.name}`, { password: PASSWORD });
    for (let i = 0; !ticketOf(gone.err); i++) {
      if (i > 500) throw new Error(`no ticket link: ${gone.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const left = ticketOf(gone.err)!;
    gone.kill();
    for (let i = 0; (await stateOf(left)).state !== 'closed'; i++) {
      if (i > 250) throw new Error('the ticket stayed open');
      await new Promise((r) => setTimeout(r, 20));
    }
  }, 40_000);
  // Last: the approval lets this user's logins with the same account username through for a while.
  it('waits on the ticket in a one-command login and connects once it is approved', async () => {
    const c = new SshClient(port, `wendy@${target.password.name}@${target.host.name}`, { password: PASSWORD });
    for (let i = 0; !ticketOf(c.err); i++) {
      if (i > 500) throw new Error(`no ticket link: ${c.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(c.err).toContain("needs a reviewer's approval");
    expect(c.err).toContain('http://127.0.0.1:8080/ui/tickets/tickets/');
    expect(c.err).toContain('Administrator(admin)');
    const id = ticketOf(c.err)!;
    expect((await stateOf(id)).state).toBe('pending');
    await new Promise((r) => setTimeout(r, 300));
    expect(c.text).not.toContain('gh$ ');
    const ok = await put(admin, `${T}/apply-login-asset-tickets/${id}/approve/`);
    expect(ok.statusCode, ok.body).toBe(200);
    await c.waitFor('gh$ ');
    await c.line('echo approved-$((40+2))', 'approved-42');
    await c.line('exit');
    expect(await c.exited).toBe(0);
    // The ticket shows the session it let through.
    const meta = JSON.parse((await stateOf(id)).meta) as { apply_from_session?: { id: string } };
    const { session } = await commandsOfLastSession('wendy');
    expect(meta.apply_from_session).toEqual({ id: session.id });
  }, 40_000);
});

describe('native SSH in the client language', () => {
  it('speaks Chinese to LANG=zh_CN.UTF-8 and Japanese to LC_ALL=ja_JP.UTF-8', async () => {
    const zh = new SshClient(port, 'sam', { password: PASSWORD }, { env: { LANG: 'zh_CN.UTF-8' } });
    await zh.waitFor('Opt> ');
    expect(zh.text).toContain('欢迎使用 Gatehouse');
    expect(zh.text).toContain('列出可用的资产');
    await zh.line('no-such-asset-anywhere', 'Opt> ');
    expect(zh.text).toContain('没有匹配的资产。');
    await zh.line('q');
    expect(await zh.exited).toBe(0);
    expect(zh.text).toContain('再见。');

    const ja = new SshClient(
      port,
      `sam@${hidden.name}`,
      { password: PASSWORD },
      { env: { LANG: 'zh_CN.UTF-8', LC_ALL: 'ja_JP.UTF-8' } },
    );
    expect(await ja.exited).not.toBe(0);
    expect(ja.err).toContain('使用できるアセットとアカウントに');

    const en = new SshClient(port, 'sam', { password: PASSWORD }, { env: { LANG: 'fr_FR.UTF-8' } });
    await en.waitFor('Opt> ');
    expect(en.text).toContain('Welcome to Gatehouse');
    await en.line('q');
    expect(await en.exited).toBe(0);
  }, 30_000);
});
