import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import { makePerm, makeUser, PASSWORD, type Row } from '../../../../test-support/perms.ts';
import { hostWithAccounts } from '../../../../test-support/gateway.ts';
import { SHELL_USER, startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { terminalClient } from '../../../../test-support/webTerminal.ts';

/**
 * Virtual accounts through the web terminal's socket against a real OpenSSH on loopback: @INPUT
 * logs in with the username and password typed into the token, @USER with the user's own username
 * (the stored namesake's secret, else the typed password), @ANON is refused for SSH.
 * The sshd has two users: `shelluser` (stored on the host) and `plainuser` (not stored).
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let host: Row;
let base: string;
const CT = '/api/v1/authentication/connection-token/';
const PLAIN = { username: 'plainuser', password: 'Plain-pass-1', uid: 1500 };

beforeAll(async () => {
  sshd = await startShellSshd({ users: [SHELL_USER, PLAIN] });
  t = await createTestApp();
  admin = await adminClient(t.app);
  host = (await hostWithAccounts(admin, sshd)).host;
  base = await listenOnLoopback(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

async function userWith(username: string, accounts: string[]): Promise<{ id: string; client: SessionClient }> {
  const u = await makeUser(admin, username);
  await makePerm(admin, { users: [u.id], assets: [host.id], accounts, actions: ['connect'] });
  const client = new SessionClient(t.app);
  expect((await client.login(username, PASSWORD)).statusCode).toBe(200);
  return { id: u.id, client };
}

const token = async (c: SessionClient, body: Row) => {
  const res = await c.post(CT, { asset: host.id, protocol: 'ssh', connect_method: 'web_cli', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

// eslint-disable-next-line no-control-regex -- the terminal's escape sequences
const clean = (text: string) => text.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '');

/** Opens the token's terminal, runs `whoami` and gives what CONNECT said and the terminal text. */
async function whoami(id: string) {
  const term = terminalClient(base, id);
  await term.waitFor(() => term.msgs.some((m) => m.type === 'CONNECT' || m.type === 'CLOSE'), 'CONNECT');
  const connect = term.msgs.find((m) => m.type === 'CONNECT');
  if (connect) {
    await term.waitFor(() => term.text().includes('$ '), 'prompt');
    await term.type('whoami\r');
    await term.waitFor(() => /whoami\s+\w+\s/.test(clean(term.text())), 'whoami output');
    term.ws.close();
  }
  await term.closed;
  // The session's row is finished once it has closed (nothing left writing when the app stops).
  if (connect) await sessionOf(connect.id!);
  return { connect, msgs: term.msgs, text: clean(term.text()) };
}

async function sessionOf(id: string): Promise<Row> {
  let s: Row = {};
  for (let i = 0; i < 200 && !s.is_finished; i++) {
    s = (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json();
    if (!s.is_finished) await new Promise((r) => setTimeout(r, 50));
  }
  return s;
}

describe('virtual accounts on the web terminal', () => {
  it('@INPUT logs in with the typed username and password, which stay sealed in the token', async () => {
    const u = await userWith('vin-user', ['@INPUT']);
    const id = await token(u.client, {
      account: '@INPUT',
      input_username: PLAIN.username,
      input_secret: PLAIN.password,
    });
    const r = await whoami(id);
    expect(r.connect?.data).toMatchObject({ account: { id: '@INPUT', username: PLAIN.username } });
    expect(r.text).toMatch(/whoami\s+plainuser/);
    const s = await sessionOf(r.connect!.id!);
    expect(s).toMatchObject({ is_success: true, login_from: { value: 'WT' } });
    expect(String(s.account)).toContain('(plainuser)');
    const cmds = (await admin.get(`/api/v1/terminal/commands/?session_id=${r.connect!.id}`)).json() as Row[];
    expect(cmds.map((c) => c.input)).toContain('whoami');
  });

  it('@INPUT with a wrong password ends as a failed session with the reason, not a crash', async () => {
    const u = await userWith('vin-wrong', ['@INPUT']);
    const id = await token(u.client, { account: '@INPUT', input_username: PLAIN.username, input_secret: 'wrong-1' });
    const r = await whoami(id);
    expect(r.connect).toBeUndefined();
    expect(r.msgs.find((m) => m.type === 'TERMINAL_ERROR')?.err).toBeTruthy();
    expect(r.msgs.at(-1)).toMatchObject({ type: 'CLOSE', reason: 'error' });
  });

  it('@USER without a stored namesake logs in as the user with the typed password', async () => {
    const u = await userWith(PLAIN.username, ['@USER']);
    const accounts = (await u.client.get(`/api/v1/perms/users/self/assets/${host.id}/accounts/`)).json() as Row[];
    expect(accounts).toEqual([
      expect.objectContaining({ alias: '@USER', username: PLAIN.username, has_secret: false }),
    ]);
    const id = await token(u.client, { account: '@USER', input_secret: PLAIN.password });
    const r = await whoami(id);
    expect(r.connect?.data).toMatchObject({ account: { id: '@USER', username: PLAIN.username } });
    expect(r.text).toMatch(/whoami\s+plainuser/);
  });

  it('@USER with a stored namesake uses the vault’s secret (nothing typed)', async () => {
    const u = await userWith(sshd.username, ['@USER']);
    const accounts = (await u.client.get(`/api/v1/perms/users/self/assets/${host.id}/accounts/`)).json() as Row[];
    // The namesakes (password and key accounts) are offered as stored accounts (the page sends an id).
    expect(accounts.map((a) => [a.username, a.has_secret, a.alias === '@USER'])).toEqual([
      [sshd.username, true, false],
      [sshd.username, true, false],
    ]);
    const id = await token(u.client, { account: accounts[0]!.id });
    const r = await whoami(id);
    expect(r.connect?.data).toMatchObject({ account: { username: sshd.username } });
    expect((r.connect!.data as Row).account.id).not.toBe('@USER');
    // The test sshd's stored user has uid 0.
    expect(r.text).toMatch(/whoami\s+root/);
  });

  it('@ANON is refused for SSH with a clear message', async () => {
    const u = await userWith('vanon-user', ['@ANON']);
    const id = await token(u.client, { account: '@ANON' });
    const r = await whoami(id);
    expect(r.connect).toBeUndefined();
    expect(r.msgs.find((m) => m.type === 'TERMINAL_ERROR')?.err).toBe(
      'An anonymous account cannot log in over SSH: choose another account.',
    );
  });

  it('refuses, unspent, a token of someone else opened from a signed-in page', async () => {
    const owner = await userWith('vtok-owner', ['@ALL']);
    const other = await userWith('vtok-other', ['@ALL']);
    const accounts = (await owner.client.get(`/api/v1/perms/users/self/assets/${host.id}/accounts/`)).json() as Row[];
    const id = await token(owner.client, { account: accounts[0]!.id });
    const foreign = terminalClient(base, id, { cookie: other.client.jar.header() });
    await foreign.closed;
    expect(foreign.msgs.find((m) => m.type === 'TERMINAL_ERROR')?.err).toBe(
      'Connection token not found, expired or already used.',
    );
    // Still the owner's to use, from the owner's page.
    const own = terminalClient(base, id, { cookie: owner.client.jar.header() });
    await own.waitFor(() => own.msgs.some((m) => m.type === 'CONNECT' || m.type === 'CLOSE'), 'CONNECT');
    expect(own.msgs.map((m) => m.err ?? m.type)).toContain('CONNECT');
    own.ws.close();
    await own.closed;
    await sessionOf(own.msgs.find((m) => m.type === 'CONNECT')!.id!);
  });
});
