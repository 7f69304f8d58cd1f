import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import type { Row } from '../../../../test-support/perms.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { startVncServer, type VncServer } from '../../../../test-support/vncServer.ts';
import { rfbClient } from '../../../../test-support/rfbClient.ts';
import { GRAPHICAL_SOCKET_PATH } from './graphicalSocket.ts';
import { terminalClient } from '../../../../test-support/webTerminal.ts';
import { graphicalClient, graphicalToken, graphicalUser, vncHost } from '../../../../test-support/graphicalAsset.ts';

/**
 * The rules a graphical session shares with SSH ones (docs/graphical.md): a domain's gateway
 * carries the RFB stream (a real OpenSSH as the gateway, its `forwardOut`), connect-method rules
 * refuse `web_gui`, and `@INPUT` logs in with the password typed for the token.
 */
let t: TestApp;
let admin: SessionClient;
let vnc: VncServer;
let jump: SshdWithUsers;
let base: string;

beforeAll(async () => {
  [vnc, jump] = await Promise.all([startVncServer(), startShellSshd()]);
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
}, 30_000);
afterAll(async () => {
  await t?.close();
  vnc?.stop();
  jump?.stop();
});

const CT = '/api/v1/authentication/connection-token/';

describe('graphical sessions under the gateway’s rules', () => {
  it('reaches a VNC server through the domain’s gateway', async () => {
    const domain = (await admin.post('/api/v1/assets/domains/', { name: 'gui-dmz' })).json() as Row;
    const gw = await admin.post('/api/v1/assets/gateways/', {
      name: 'gui-jump',
      address: '127.0.0.1',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: jump.port }],
    });
    expect(gw.statusCode, gw.body).toBe(201);
    const gwAccount = await admin.post('/api/v1/accounts/accounts/', {
      asset: (gw.json() as Row).id,
      username: jump.username,
      secret: jump.password,
    });
    expect(gwAccount.statusCode, gwAccount.body).toBe(201);
    const { host, account } = await vncHost(admin, vnc.port, vnc.password, { domain: domain.id });
    const u = await graphicalUser(t, admin, host.id);
    const c = graphicalClient(base, await graphicalToken(u.client, host.id, account.name));
    await c.waitFor(() => c.connected() && c.updates > 0, 'the desktop through the gateway');
    const keys = await t.deps.database.db.selectFrom('terminal_hostkey').selectAll().execute();
    expect(keys.find((k) => k.asset_id === (gw.json() as Row).id)).toMatchObject({ port: jump.port });
    c.ws.close();
    await c.closed;
  });

  it('refuses web_gui where a connect-method rule rejects it', async () => {
    const { host, account } = await vncHost(admin, vnc.port, vnc.password);
    const u = await graphicalUser(t, admin, host.id);
    const rule = await admin.post('/api/v1/acls/connect-method-acls/', {
      name: `no-gui-${u.username}`,
      users: { type: 'ids', ids: [u.id] },
      connect_methods: ['web_gui'],
      action: 'reject',
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const methods = (await u.client.get('/api/v1/terminal/components/connect-methods/')).json() as Row;
    expect(methods.vnc).toBeUndefined();
    const res = await u.client.post(CT, {
      asset: host.id,
      account: account.name,
      protocol: 'vnc',
      connect_method: 'web_gui',
    });
    expect(res.statusCode).toBe(403);
    expect((res.json() as Row).code).toBe('acl_reject');
  });

  it('logs in with the password typed for @INPUT, and says so when it is wrong', async () => {
    const { host } = await vncHost(admin, vnc.port, 'unused-stored');
    const u = await graphicalUser(t, admin, host.id);
    const perm = await admin.post('/api/v1/perms/asset-permissions/', {
      name: `gui-input-${u.username}`,
      users: [u.id],
      assets: [host.id],
      accounts: ['@INPUT'],
      actions: ['connect'],
    });
    expect(perm.statusCode, perm.body).toBe(201);
    const token = (secret: string) =>
      graphicalToken(u.client, host.id, '@INPUT', 'vnc', { input_username: 'viewer', input_secret: secret });
    const ok = graphicalClient(base, await token(vnc.password));
    await ok.waitFor(() => ok.connected() && ok.updates > 0, 'the desktop with the typed password');
    expect(ok.control[0]).toMatchObject({ type: 'CONNECT', data: { account: { id: '@INPUT', username: 'viewer' } } });
    ok.ws.close();
    const wrong = graphicalClient(base, await token('not-it'));
    await wrong.closed;
    expect(wrong.control.find((m) => m.type === 'TERMINAL_ERROR')?.err).toMatch(/refused the account's password/);
  });

  it('spends a token only on its own socket and only for its own user', async () => {
    const { host, account } = await vncHost(admin, vnc.port, vnc.password);
    const u = await graphicalUser(t, admin, host.id);
    const other = await graphicalUser(t, admin, host.id);
    // A VNC token on the terminal socket opens no shell with the same account.
    const shell = terminalClient(base, await graphicalToken(u.client, host.id, account.name));
    await shell.closed;
    expect(shell.msgs.find((m) => m.type === 'TERMINAL_ERROR')?.err).toMatch(/does not offer the protocol vnc/);
    // A page signed in as someone else cannot spend the user's token.
    const token = await graphicalToken(u.client, host.id, account.name);
    const stolen = rfbClient(`${base}${GRAPHICAL_SOCKET_PATH}?token=${token}&width=800&height=600`, {
      headers: { cookie: other.client.jar.header() },
    });
    await stolen.closed;
    expect(stolen.control.find((m) => m.type === 'TERMINAL_ERROR')).toBeDefined();
    // The token was left unspent: its owner still connects with it.
    const own = graphicalClient(base, token);
    await own.waitFor(() => own.connected(), 'the owner');
    own.ws.close();
    await own.closed;
  });
});
