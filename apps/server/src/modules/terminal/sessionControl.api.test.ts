import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { ACCOUNTS, makeHost } from '../../../test-support/accounts.ts';
import { gatewayOf } from './gatewayInstance.ts';
import { adminIdentity, hostWithAccounts, openShell, signedInMember } from '../../../test-support/gateway.ts';
import { SHELL_USER, startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * Live control on one instance (in-process bus): lock, unlock, kill through the task API, the
 * live-watch hook, org boundaries; a session through a domain gateway (a second OpenSSH); `su`.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let jump: SshdWithUsers;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
let adminUser: { id: string; name: string; username: string };
const TASKS = '/api/v1/terminal/tasks';

beforeAll(async () => {
  sshd = await startShellSshd({ users: [SHELL_USER, { username: 'plainuser', password: 'Plain-pass-1', uid: 1500 }] });
  jump = await startShellSshd({ users: [{ username: 'jumpuser', password: 'Jump-pass-1' }] });
  t = await createTestApp();
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  adminUser = await adminIdentity(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  jump?.stop();
  await t?.close();
});

function open(assetId = target.host.id, accountId = target.password.id) {
  return openShell(t.app, { user: adminUser, assetId, accountId, loginFrom: 'ST' });
}

describe('live control of sessions', () => {
  it('pauses and resumes input, lets a watcher see the output, and terminates the session', async () => {
    const { s, term } = await open();
    const watched: string[] = [];
    const stop = await gatewayOf(t.app).registry.watch(s.id, (text) => watched.push(text));
    const lock = await admin.post(`${TASKS}/toggle-lock-session/`, { session_id: s.id, task_name: 'lock_session' });
    expect(lock.json()).toEqual({ ok: [s.id] });
    await term.waitFor('This session is paused by an administrator');
    expect((await admin.get(`/api/v1/terminal/sessions/${s.id}/`)).json().is_locked).toBe(true);
    const from = term.text.length;
    await term.type('echo while-locked\r');
    await new Promise((r) => setTimeout(r, 300));
    expect(term.text.slice(from)).not.toContain('while-locked');
    await admin.post(`${TASKS}/toggle-lock-session/`, { session_id: s.id, task_name: 'unlock_session' });
    await term.waitFor('This session is resumed.', from);
    await term.run('echo after-unlock');
    expect(watched.join('')).toContain('after-unlock');
    await stop();

    const listed = (await admin.get('/api/v1/terminal/terminals/')).json();
    expect(listed.find((x: { id: string }) => x.id === gatewayOf(t.app).id)).toBeTruthy();
    await gatewayOf(t.app).heartbeat();
    const mine = (await admin.get(`/api/v1/terminal/terminals/${gatewayOf(t.app).id}/`)).json();
    expect(mine.session_online).toBe(1);

    const kill = await admin.post(`${TASKS}/kill-session/`, [s.id]);
    expect(kill.json()).toEqual({ ok: [s.id] });
    await term.waitEnd();
    expect(term.text).toContain('This session was terminated by an administrator.');
    for (let i = 0; i < 50 && !(await admin.get(`/api/v1/terminal/sessions/${s.id}/`)).json().is_finished; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await admin.get(`/api/v1/terminal/sessions/${s.id}/`)).json()).toMatchObject({
      is_finished: true,
      is_locked: false,
      has_replay: true,
    });
    // A finished session is acted on no more.
    expect((await admin.post(`${TASKS}/kill-session/`, [s.id])).json()).toEqual({ ok: [] });
  }, 60_000);

  it('lets an org auditor read sessions and commands but not act on them; an org user reads nothing', async () => {
    const { s, term } = await open();
    await term.run('echo audited');
    const clients: Record<string, SessionClient> = {};
    for (const [name, role] of [
      ['gw_auditor', BUILTIN_ROLE_IDS.OrgAuditor],
      ['gw_user', BUILTIN_ROLE_IDS.OrgUser],
    ] as const) {
      clients[name] = (await signedInMember(t, admin, name, role)).client;
    }
    const auditor = clients.gw_auditor!;
    const user = clients.gw_user!;
    expect((await auditor.get(`/api/v1/terminal/sessions/${s.id}/`)).json().id).toBe(s.id);
    const cmds = (await auditor.get(`/api/v1/terminal/commands/?session_id=${s.id}`)).json();
    expect(cmds.map((c: { input: string }) => c.input)).toEqual(['echo audited']);
    expect((await auditor.post(`${TASKS}/kill-session/`, [s.id])).statusCode).toBe(403);
    expect((await auditor.get('/api/v1/terminal/terminals/')).statusCode).toBe(403);
    expect((await user.get('/api/v1/terminal/sessions/')).statusCode).toBe(403);
    expect((await user.get('/api/v1/terminal/commands/')).statusCode).toBe(403);
    expect((await user.post(`${TASKS}/kill-session/`, [s.id])).statusCode).toBe(403);
    await s.close();
  }, 30_000);

  it('refuses bad input and sessions of another org', async () => {
    expect((await admin.post(`${TASKS}/kill-session/`, { id: 'x' })).statusCode).toBe(400);
    expect((await admin.post(`${TASKS}/kill-session/`, [])).statusCode).toBe(400);
    const bad = await admin.post(`${TASKS}/toggle-lock-session/`, { session_id: 'x', task_name: 'pause' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().task_name[0]).toBe('task_name must be lock_session or unlock_session.');
    const { s, term } = await open();
    const orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Gateway org B' })).json().id;
    const other = { 'x-jms-org': orgB };
    expect((await admin.post(`${TASKS}/kill-session/`, [s.id], other)).json()).toEqual({ ok: [] });
    expect(
      (await admin.post(`${TASKS}/toggle-lock-session/`, { session_id: s.id, task_name: 'lock_session' }, other))
        .statusCode,
    ).toBe(404);
    expect((await admin.get(`/api/v1/terminal/sessions/${s.id}/`, other)).statusCode).toBe(404);
    expect((await admin.get('/api/v1/terminal/sessions/', other)).json()).toEqual([]);
    await term.run('echo still-running');
    await s.close();
  }, 30_000);
});

describe('a session through the domain gateway', () => {
  it('jumps through the gateway asset with its account, and fails when the gateway is down', async () => {
    const domain = (await admin.post('/api/v1/assets/domains/', { name: 'dmz' })).json();
    const gw = await admin.post('/api/v1/assets/gateways/', {
      name: 'jump-1',
      address: '127.0.0.1',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: jump.port }],
    });
    expect(gw.statusCode, gw.body).toBe(201);
    const gwAccount = await admin.post(ACCOUNTS, {
      asset: gw.json().id,
      username: jump.username,
      secret: jump.password,
    });
    expect(gwAccount.statusCode, gwAccount.body).toBe(201);
    const inner = await makeHost(admin, sshd.port, { domain: domain.id });
    const account = (
      await admin.post(ACCOUNTS, { asset: inner.id, username: sshd.username, secret: sshd.password })
    ).json();
    const { s, term } = await open(inner.id, account.id);
    await term.run('echo via-gateway');
    await s.close();
    const keys = await t.deps.database.db.selectFrom('terminal_hostkey').selectAll().execute();
    expect(keys.find((k) => k.asset_id === gw.json().id)).toMatchObject({
      port: jump.port,
      fingerprint: jump.hostKeyFingerprint,
    });
    expect(keys.find((k) => k.asset_id === inner.id)).toMatchObject({ fingerprint: sshd.hostKeyFingerprint });
    jump.stop();
    await expect(open(inner.id, account.id)).rejects.toThrow(`Could not connect to 127.0.0.1:${jump.port}`);
  }, 60_000);
});

describe('an account reached with su', () => {
  it('logs in as the account it is switched from, then su to it with its password', async () => {
    const platform = await admin.post('/api/v1/assets/platforms/', {
      name: 'Linux su',
      category: 'host',
      type: 'linux',
      su_enabled: true,
      su_method: 'su',
      protocols: [{ name: 'ssh', port: 22 }],
    });
    expect(platform.statusCode, platform.body).toBe(201);
    const host = await makeHost(admin, sshd.port, { platform: 'Linux su' });
    const plain = await admin.post(ACCOUNTS, { asset: host.id, username: 'plainuser', secret: 'Plain-pass-1' });
    expect(plain.statusCode, plain.body).toBe(201);
    const root = await admin.post(ACCOUNTS, {
      asset: host.id,
      username: sshd.username,
      secret: sshd.password,
      su_from: plain.json().id,
    });
    expect(root.statusCode, root.body).toBe(201);
    const { s, term } = await open(host.id, root.json().id);
    const from = term.text.length;
    await term.run('id -u; echo $USER');
    expect(term.text.slice(from)).toMatch(/[^ ]0\r\nshelluser\r\n/);
    // The password went to su only: never shown, never recorded as a command.
    expect(term.text).not.toContain(sshd.password);
    await s.close();
    const cmds = (await admin.get(`/api/v1/terminal/commands/?session_id=${s.id}`)).json();
    expect(cmds.map((c: { input: string }) => c.input)).toEqual(['id -u; echo $USER']);

    // A wrong password for su (on a second host: one password account per username and asset).
    const host2 = await makeHost(admin, sshd.port, { platform: 'Linux su' });
    const plain2 = (
      await admin.post(ACCOUNTS, { asset: host2.id, username: 'plainuser', secret: 'Plain-pass-1' })
    ).json();
    const wrong = await admin.post(ACCOUNTS, {
      asset: host2.id,
      username: sshd.username,
      secret: 'Not-the-password-1',
      su_from: plain2.id,
    });
    expect(wrong.statusCode, wrong.body).toBe(201);
    await expect(open(host2.id, wrong.json().id)).rejects.toThrow(
      `Switching to the account ${sshd.username} with su - ${sshd.username} failed.`,
    );
    const failed = (await admin.get(`/api/v1/terminal/sessions/?asset_id=${host2.id}`)).json();
    expect(failed[0]).toMatchObject({ is_success: false, is_finished: true });
  }, 60_000);
});
