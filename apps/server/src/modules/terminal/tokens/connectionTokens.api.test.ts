import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import { makePerm, makeUser, PASSWORD, type Row } from '../../../../test-support/perms.ts';
import { hostWithAccounts } from '../../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { WEB_TERMINAL_SOCKET_PATH } from '../webTerminalSocket.ts';
import { terminalClient } from '../../../../test-support/webTerminal.ts';

/**
 * Connection tokens made by users (the gateway's checks, case by case) and spent by the web
 * terminal's WebSocket against a real OpenSSH on loopback: one use, output relayed, command recorded.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let target: { host: Row; password: Row; key: Row };
let base: string;
const CT = '/api/v1/authentication/connection-token/';
let n = 0;

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  base = await listenOnLoopback(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

async function user(): Promise<{ id: string; client: SessionClient }> {
  const u = await makeUser(admin, `tok-user-${++n}`);
  const client = new SessionClient(t.app);
  const res = await client.login(u.username, PASSWORD);
  expect(res.statusCode, res.body).toBe(200);
  return { id: u.id, client };
}

const grant = (userId: string, body: Row = {}) =>
  makePerm(admin, { users: [userId], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'], ...body });

const create = (c: SessionClient, body: Row = {}) =>
  c.post(CT, {
    asset: target.host.id,
    account: target.password.name,
    protocol: 'ssh',
    connect_method: 'web_cli',
    ...body,
  });

describe('creating a connection token', () => {
  it('makes a one-time token for a permed account, expiring with the one-time lifetime', async () => {
    const u = await user();
    await grant(u.id, { actions: ['connect', 'copy'] });
    const res = await create(u.client);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      asset: { id: target.host.id, name: target.host.name },
      account: target.password.name,
      protocol: 'ssh',
      connect_method: 'web_cli',
      is_reusable: false,
      is_active: true,
      is_expired: false,
    });
    expect(res.json().expire_time).toBeGreaterThan(250);
    expect(res.json().expire_time).toBeLessThanOrEqual(300);
    const listed = (await u.client.get(CT)).json() as Row[];
    expect(listed.map((x) => x.id)).toEqual([res.json().id]);
  });

  it('ends no later than the permission', async () => {
    const u = await user();
    await grant(u.id, { date_expired: new Date(Date.now() + 60_000).toISOString() });
    const res = await create(u.client);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().expire_time).toBeLessThanOrEqual(60);
  });

  it('refuses an asset not granted, an account without connect, an expired permission', async () => {
    const u = await user();
    const notGranted = await create(u.client);
    expect(notGranted.statusCode).toBe(400);
    expect(notGranted.json().code).toBe('perm_account_invalid');
    expect(notGranted.json().detail).toBe('You have no valid permission to connect to this asset with this account.');
    await grant(u.id, { actions: ['upload', 'download'] });
    expect((await create(u.client)).json().code).toBe('perm_account_invalid');
    const v = await user();
    await grant(v.id, { date_start: '2020-01-01T00:00:00Z', date_expired: '2021-01-01T00:00:00Z' });
    expect((await create(v.client)).json()).toMatchObject({
      code: 'perm_expired',
      detail: 'Your permission to connect to this asset has expired.',
    });
    // An account on the granted asset that the permission does not name.
    const w = await user();
    await grant(w.id, { accounts: [target.key.username] });
    expect((await create(w.client, { account: 'nobody' })).json().code).toBe('perm_account_invalid');
    // A missing field is a 400 naming it; a garbage asset id is no 500.
    expect((await w.client.post(CT, { account: 'x' })).json()).toMatchObject({ code: 'required' });
    expect((await create(w.client, { asset: 'not-a-uuid' })).statusCode).toBe(400);
  });

  it('refuses a protocol the asset does not offer, naming both; SFTP rides on its SSH port', async () => {
    const u = await user();
    await grant(u.id, { actions: ['connect', 'upload', 'download'] });
    const k8s = await create(u.client, { protocol: 'k8s' });
    expect(k8s.statusCode).toBe(400);
    expect(k8s.json()).toEqual({
      code: 'protocol_not_supported',
      detail: `The asset ${target.host.name} does not offer the protocol k8s.`,
    });
    const sftp = await create(u.client, { protocol: 'sftp', connect_method: 'web_sftp' });
    expect(sftp.statusCode, sftp.body).toBe(201);
  });

  it('allows @ANON only for web connect methods and asks @INPUT for a username, sealing its secret', async () => {
    const u = await user();
    await grant(u.id, { accounts: ['@ANON', '@INPUT'] });
    const native = await create(u.client, { account: '@ANON', connect_method: 'ssh_client' });
    expect(native.statusCode).toBe(400);
    expect(native.json().code).toBe('anon_not_allowed');
    expect((await create(u.client, { account: '@ANON' })).statusCode).toBe(201);
    expect((await create(u.client, { account: '@INPUT' })).json()).toMatchObject({ code: 'required' });
    const input = await create(u.client, { account: '@INPUT', input_username: 'ops', input_secret: 'Typed-secret-1' });
    expect(input.statusCode, input.body).toBe(201);
    expect(input.json().input_username).toBe('ops');
    expect(input.body).not.toContain('Typed-secret-1');
    const row = await t.deps.database.db
      .selectFrom('authentication_connectiontoken')
      .select('input_secret')
      .where('id', '=', input.json().id)
      .executeTakeFirstOrThrow();
    expect(row.input_secret).not.toContain('Typed-secret-1');
    expect(t.deps.secretBox.decrypt(row.input_secret)).toBe('Typed-secret-1');
  });

  it('applies login-asset rules: reject -> acl_reject, review -> acl_review', async () => {
    const u = await user();
    const v = await user();
    await grant(u.id);
    await grant(v.id);
    const acl = (body: Row) =>
      admin.post('/api/v1/acls/login-asset-acls/', { assets: { type: 'all' }, accounts: ['@ALL'], ...body });
    const reject = await acl({ name: `deny-${n}`, users: { type: 'ids', ids: [u.id] }, action: 'reject' });
    expect(reject.statusCode, reject.body).toBe(201);
    const refused = await create(u.client);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'acl_reject', detail: 'Connection refused by a login asset rule.' });
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    const review = await acl({
      name: `review-${n}`,
      users: { type: 'ids', ids: [v.id] },
      action: 'review',
      reviewers: [adminId],
    });
    expect(review.statusCode, review.body).toBe(201);
    const held = await create(v.client);
    expect(held.statusCode).toBe(400);
    expect(held.json().code).toBe('acl_review');
  });

  it('exchanges an own live token for a fresh one; someone else’s is a 404', async () => {
    const u = await user();
    const v = await user();
    await grant(u.id);
    const first = (await create(u.client)).json();
    const fresh = await u.client.post(`${CT}exchange/`, { id: first.id });
    expect(fresh.statusCode, fresh.body).toBe(201);
    expect(fresh.json().id).not.toBe(first.id);
    expect(fresh.json().value).not.toBe(first.value);
    expect((await v.client.post(`${CT}exchange/`, { id: first.id })).statusCode).toBe(404);
    expect((await v.client.get(`${CT}${first.id}/client-url/`)).statusCode).toBe(404);
    const url = (await u.client.get(`${CT}${first.id}/client-url/`)).json().url as string;
    const launch = JSON.parse(Buffer.from(url.replace('jms://', ''), 'base64').toString());
    expect(launch).toMatchObject({ version: 2, id: first.id, token: { id: first.id, value: first.value } });
  });
});

describe('connect methods and the smart endpoint', () => {
  it('lists the built-in gateway’s methods per protocol, minus those a connect-method rule rejects', async () => {
    const u = await user();
    const methods = (await u.client.get('/api/v1/terminal/components/connect-methods/')).json();
    expect(methods.ssh.map((m: Row) => m.value)).toEqual(['web_cli', 'web_sftp', 'ssh_client']);
    expect(methods.ssh[0]).toMatchObject({ label: 'Web CLI', type: 'web', component: 'koko' });
    const res = await admin.post('/api/v1/acls/connect-method-acls/', {
      name: `no-native-${n}`,
      users: { type: 'ids', ids: [u.id] },
      connect_methods: ['ssh_client'],
      action: 'reject',
    });
    expect(res.statusCode, res.body).toBe(201);
    const flat = (await u.client.get('/api/v1/terminal/components/connect-methods/?flat=1')).json();
    expect(flat.map((m: Row) => m.value)).toEqual(['web_cli', 'web_sftp', 'db_client', 'web_gui']);
    expect(methods.postgresql.map((m: Row) => m.value)).toEqual(['web_cli', 'db_client']);
    expect(methods.rdp.map((m: Row) => m.value)).toEqual(['web_gui']);
    await grant(u.id);
    const native = await create(u.client, { connect_method: 'ssh_client' });
    expect(native.json().code).toBe('acl_reject');
    const endpoint = (await u.client.get(`/api/v1/terminal/endpoints/smart/?asset_id=${target.host.id}`)).json();
    // Test apps run without the native SSH server (GATEHOUSE_SSH_PORT 0).
    expect(endpoint).toMatchObject({ name: 'Default', host: '', ssh_port: t.deps.config.sshPort });
    expect(t.deps.config.sshPort).toBe(0);
  });
});

const openTerminal = (token: string) => terminalClient(base, token);

describe('the web terminal WebSocket', () => {
  it('spends a token once, runs echo, relays its output, sends the clipboard flags and records the command', async () => {
    const u = await user();
    await grant(u.id, { actions: ['connect', 'copy'] });
    const token = (await create(u.client)).json();
    const term = openTerminal(token.id);
    await term.waitFor(() => term.msgs.some((m) => m.type === 'CONNECT'), 'CONNECT');
    const connect = term.msgs.find((m) => m.type === 'CONNECT')!;
    expect(connect.data).toMatchObject({
      asset: { id: target.host.id },
      account: { id: target.password.id },
      actions: ['connect', 'copy'],
      clipboard: { copy: true, paste: false },
    });
    await term.waitFor(() => term.text().includes('gh$ '), 'prompt');
    term.ws.send(JSON.stringify({ type: 'TERMINAL_RESIZE', data: { cols: 120, rows: 40 } }));
    await term.type('echo hello-$((6*7))\r');
    await term.waitFor(() => term.text().includes('hello-42'), 'echo output');
    term.ws.send(JSON.stringify({ type: 'CLOSE' }));
    await term.closed;

    // Spent: the second use is refused and the token no longer listed.
    const again = openTerminal(token.id);
    await again.closed;
    expect(again.msgs.find((m) => m.type === 'TERMINAL_ERROR')?.err).toBe(
      'Connection token not found, expired or already used.',
    );
    expect((await u.client.get(CT)).json()).toEqual([]);

    const sessionId = connect.id!;
    let session: Row = {};
    for (let i = 0; i < 100 && !session.is_finished; i++) {
      session = (await admin.get(`/api/v1/terminal/sessions/${sessionId}/`)).json();
      if (!session.is_finished) await new Promise((r) => setTimeout(r, 50));
    }
    expect(session).toMatchObject({
      login_from: { value: 'WT' },
      user_id: u.id,
      asset_id: target.host.id,
      is_finished: true,
    });
    const commands = (await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}`)).json() as Row[];
    expect(commands.map((c) => c.input)).toContain('echo hello-$((6*7))');
    expect(commands.find((c) => c.input === 'echo hello-$((6*7))')!.output).toContain('hello-42');
  });

  it('is refused from another site’s page (the websocket guard)', async () => {
    const u = await user();
    await grant(u.id);
    const token = (await create(u.client)).json();
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${base}${WEB_TERMINAL_SOCKET_PATH}?token=${token.id}`, {
        headers: { origin: 'https://evil.example' },
      });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
    });
    expect(status).toBe(403);
    // The refused attempt did not spend it.
    expect(((await u.client.get(CT)).json() as Row[]).map((x) => x.id)).toEqual([token.id]);
  });

  it('refuses an unknown token and a token whose permission was revoked since', async () => {
    const unknown = openTerminal('00000000-0000-0000-0000-00000000dead');
    await unknown.closed;
    expect(unknown.msgs.map((m) => m.type)).toEqual(['TERMINAL_ERROR', 'CLOSE']);
    const u = await user();
    const perm = await grant(u.id);
    const token = (await create(u.client)).json();
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/v1/perms/asset-permissions/${perm.id}/` })).statusCode,
    ).toBe(204);
    const term = openTerminal(token.id);
    await term.closed;
    expect(term.msgs.find((m) => m.type === 'TERMINAL_ERROR')?.err).toBe(
      'You have no valid permission to connect to this asset with this account.',
    );
  });
});
