/* eslint-disable no-control-regex -- the screens under test are terminal escape sequences */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { adminIdentity, hostWithAccounts, openShell, signedInMember } from '../../../test-support/gateway.ts';
import { MONITOR_SOCKET_PATH } from './monitorSocket.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { monitorClient } from '../../../test-support/webTerminal.ts';

/**
 * Watching a running session through `/koko/ws/monitor/` against a real OpenSSH: the screen as it
 * stands, then live output; what the watcher sends never reaches the session; a join record per
 * watch, closed when the watcher leaves or the session ends; the monitor right in the session's
 * org; the replay/monitor pages need a signed-in user.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let base: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
let adminUser: { id: string; name: string; username: string };

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
  target = await hostWithAccounts(admin, sshd);
  adminUser = await adminIdentity(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

function open() {
  return openShell(t.app, { user: adminUser, assetId: target.host.id, accountId: target.password.id });
}

function monitor(client: SessionClient, sessionId: string) {
  return monitorClient(base, client.jar.header(), sessionId);
}

const signedIn = async (name: string, role: string) => (await signedInMember(t, admin, name, role)).client;

const joinRecords = async (sessionId: string) =>
  (await admin.get(`/api/v1/terminal/session-join-records/?session=${sessionId}`)).json() as {
    joiner_display: string;
    is_finished: boolean;
    action_permission: { value: string };
    date_left: string | null;
  }[];

describe('monitoring a live session', () => {
  it('shows the screen, then the live output, read-only, and ends with the session', async () => {
    const { s, term } = await open();
    await term.type('echo before-watch\r');
    await term.waitFor(/before-watch\r\n.*gh\$ /);
    // The online tab's list offers it for watching and terminating.
    const online = (await admin.get('/api/v1/terminal/sessions/?is_finished=0')).json() as Record<string, unknown>[];
    expect(online.find((r) => r.id === s.id)).toMatchObject({ can_join: true, can_terminate: true, can_replay: false });
    const m = monitor(admin, s.id);
    await m.waitFor(() => m.msgs.some((x) => x.type === 'CONNECT'), 'CONNECT');
    const connect = m.msgs.find((x) => x.type === 'CONNECT')!;
    expect(connect.data).toMatchObject({ session: { id: s.id, is_locked: false }, can_terminate: true });
    // The screen as it stood when the watcher joined.
    await m.waitFor(() => m.text().includes('before-watch'), 'the current screen');
    await term.type('echo live-$((6*7))\r');
    await m.waitFor(() => m.text().includes('live-42'), 'live output');
    // Keys from the watcher never reach the session.
    m.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: 'echo intruder\r' }));
    await term.type('echo after\r');
    await term.waitFor(/after\r\n.*gh\$ /);
    expect(term.text).not.toContain('intruder');

    let records = await joinRecords(s.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ joiner_display: 'Administrator(admin)', is_finished: false });
    expect(records[0]!.action_permission.value).toBe('readonly');

    expect((await admin.post('/api/v1/terminal/tasks/kill-session/', [s.id])).json()).toEqual({ ok: [s.id] });
    await m.closed;
    expect(m.msgs.at(-1)).toEqual({ type: 'CLOSE', reason: 'ended' });
    records = await joinRecords(s.id);
    expect(records[0]).toMatchObject({ is_finished: true });
    expect(records[0]!.date_left).toBeTruthy();

    // Now on the offline tab, replayable, no longer joinable.
    await expect
      .poll(async () => {
        const offline = (await admin.get('/api/v1/terminal/sessions/?is_finished=1')).json() as Record<
          string,
          unknown
        >[];
        return offline.find((r) => r.id === s.id);
      })
      .toMatchObject({ can_join: false, can_terminate: false, can_replay: true });
    // A finished session has nothing to watch.
    const late = monitor(admin, s.id);
    await late.closed;
    expect(late.msgs[0]).toEqual({
      type: 'TERMINAL_ERROR',
      err: 'This session is not running: there is nothing to watch.',
    });
  }, 60_000);

  it('draws the first screen with its colours, attributes and cursor', async () => {
    const { s, term } = await open();
    await term.type("printf '\\033[31mred-x\\033[0m \\033[1mbold-y\\033[0m\\n'\r");
    await term.waitFor(/bold-y\x1b\[0m\r\n.*gh\$ /);
    // A half-typed line with the cursor moved back two places.
    await term.type('echo pa-z');
    await term.waitFor(/echo pa-z$/);
    await term.type('\x1b[D\x1b[D');
    await term.waitFor(/echo pa-z(?:\x08\x08|\x1b\[D\x1b\[D|\x1b\[2D)$/);
    const m = monitor(admin, s.id);
    await m.waitFor(() => m.msgs.some((x) => x.type === 'TERMINAL_DATA'), 'the current screen');
    const first = String(m.msgs.find((x) => x.type === 'TERMINAL_DATA')!.data);
    // Cleared, then the rows as drawn: red and bold as SGR sequences, not plain text.
    expect(first.startsWith('\x1b[H\x1b[2J')).toBe(true);
    expect(first).toContain('\x1b[31mred-x');
    expect(first).toMatch(/\x1b\[(?:0;)?1mbold-y/);
    // The cursor stands where the user types, two places back (then the terminal modes, e.g. bracketed paste).
    expect(first).toMatch(/gh\$ echo pa-z\x1b\[2D(?:\x1b\[\?[0-9;]*[hl])*$/);
    await term.type('r\r');
    await m.waitFor(() => m.text().includes('par-z\r\n'), 'live output');
    expect((await admin.post('/api/v1/terminal/tasks/kill-session/', [s.id])).json()).toEqual({ ok: [s.id] });
    await m.closed;
  }, 60_000);

  it('needs the monitor right in the session org; others see no session', async () => {
    const { s } = await open();
    const auditor = await signedIn('mon_auditor', BUILTIN_ROLE_IDS.OrgAuditor);
    const user = await signedIn('mon_user', BUILTIN_ROLE_IDS.OrgUser);
    const a = monitor(auditor, s.id);
    await a.closed;
    expect(a.msgs[0]).toEqual({ type: 'TERMINAL_ERROR', err: 'You may not monitor this session.' });
    const u = monitor(user, s.id);
    await u.closed;
    expect(u.msgs[0]?.err).toBe('This session is not running: there is nothing to watch.');
    const anon = new WebSocket(`${base}${MONITOR_SOCKET_PATH}?session_id=${s.id}`);
    const code = await new Promise<number>((r) => anon.once('close', (c) => r(c)));
    expect(code).toBe(4001);
    expect(await joinRecords(s.id)).toEqual([]);
    // The session still runs, untouched.
    expect((await admin.get(`/api/v1/terminal/sessions/${s.id}/`)).json().is_finished).toBe(false);
    await s.close();
  }, 60_000);

  it('serves the replay and monitor pages to signed-in users only', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/luna/replay/abc?t=5' });
    expect(anon.statusCode).toBe(302);
    expect(anon.headers.location).toBe(`/core/auth/login/?next=${encodeURIComponent('/luna/replay/abc?t=5')}`);
    for (const url of ['/luna/replay/abc', '/luna/monitor/abc/']) {
      const res = await admin.get(url);
      // The console build is absent in API tests: the page is what would be sent (503 names it).
      expect([200, 503]).toContain(res.statusCode);
      expect(res.headers.location).toBeUndefined();
    }
  });
});
