import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { makePerm, makeUser, type Row } from '../../../test-support/perms.ts';
import { adminIdentity, hostWithAccounts, openShell } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { put, signIn, T } from '../../../test-support/tickets.ts';
import { createTicket } from './ticketStore.ts';
import { monitorClient, terminalClient } from '../../../test-support/webTerminal.ts';

/**
 * A ticket's reviewer watching and controlling the ticket's session on a real OpenSSH (issue 19):
 * `/koko/ws/monitor/?session_id=&ticket_id=` lets the current step's assignee of the command
 * ticket linked to the session watch it without any terminal permission; the applicant, another
 * user and the assignee naming another session are refused. The contract's
 * `terminal/tasks/*-for-ticket/` routes pause and end it for the reviewer only (that command
 * ticket is written directly: the held command that opens one is `commandConfirm.api.test.ts`).
 * A web terminal session let through by an approved login-asset ticket is recorded on the ticket
 * and watched from it the same way.
 */
let t: TestApp;
let admin: SessionClient;
let reviewer: SessionClient;
let applicant: SessionClient;
let outsider: SessionClient;
let sshd: SshdWithUsers;
let base: string;
let target: { host: Row; password: Row };
let ids: { reviewer: string; applicant: string };
let adminUser: { id: string; name: string; username: string };

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
  target = await hostWithAccounts(admin, sshd);
  adminUser = await adminIdentity(t.app);
  ids = { reviewer: (await makeUser(admin, 'tw_reviewer')).id, applicant: (await makeUser(admin, 'tw_applicant')).id };
  await makeUser(admin, 'tw_outsider');
  reviewer = await signIn(t, 'tw_reviewer');
  applicant = await signIn(t, 'tw_applicant');
  outsider = await signIn(t, 'tw_outsider');
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

function openSession() {
  return openShell(t.app, { user: adminUser, assetId: target.host.id, accountId: target.password.id });
}

const ticketFor = (sessionId: string) =>
  createTicket(t.deps.database.db, {
    type: 'command_confirm',
    title: 'Run rm',
    orgId: DEFAULT_ORG_ID,
    applicantId: ids.applicant,
    createdBy: 'tw_applicant',
    meta: { apply_run_command: 'rm -rf /tmp/x', apply_from_session: { id: sessionId } },
    levels: [[ids.reviewer]],
  });

function monitor(client: SessionClient, sessionId: string, ticketId?: string) {
  return monitorClient(base, client.jar.header(), sessionId, ticketId);
}

const NOT_RUNNING = 'This session is not running: there is nothing to watch.';

async function refused(client: SessionClient, sessionId: string, ticketId?: string) {
  const m = monitor(client, sessionId, ticketId);
  await m.closed;
  return m.msgs[0]?.err;
}

describe("watching a ticket's session", () => {
  it("lets the ticket's reviewer watch, pause and end the session; nobody else", async () => {
    const { s, term } = await openSession();
    const other = await openSession();
    const tk = await ticketFor(s.id);
    await term.type('echo before-$((2*3))\r');
    await term.waitFor(/before-6\r\n.*gh\$ /);

    // Without the ticket the reviewer has no terminal right; the applicant and another user are
    // refused even with it; the ticket does not open another session.
    expect(await refused(reviewer, s.id)).toBe(NOT_RUNNING);
    expect(await refused(applicant, s.id, tk.id)).toBe(NOT_RUNNING);
    expect(await refused(outsider, s.id, tk.id)).toBe(NOT_RUNNING);
    expect(await refused(reviewer, other.s.id, tk.id)).toBe(NOT_RUNNING);

    const m = monitor(reviewer, s.id, tk.id);
    await m.waitFor(() => m.msgs.some((x) => x.type === 'CONNECT'), 'CONNECT');
    expect(m.msgs.find((x) => x.type === 'CONNECT')!.data).toMatchObject({
      session: { id: s.id },
      can_terminate: true,
    });
    await m.waitFor(() => m.text().includes('before-6'), 'the current screen');
    await term.type('echo live-$((6*7))\r');
    await m.waitFor(() => m.text().includes('live-42'), 'live output');
    m.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: 'echo intruder\r' }));
    await term.type('echo after\r');
    await term.waitFor(/after\r\n.*gh\$ /);
    expect(term.text).not.toContain('intruder');
    const records = (await admin.get(`/api/v1/terminal/session-join-records/?session=${s.id}`)).json() as Row[];
    expect(records.map((r) => r.joiner_display)).toEqual(['tw_reviewer(tw_reviewer)']);

    // The contract's for-ticket task routes: the reviewer only, the ticket's session only.
    const lock = (c: SessionClient, sid: string, q = `?ticket_id=${tk.id}`) =>
      c.post(`/api/v1/terminal/tasks/toggle-lock-session-for-ticket/${q}`, {
        session_id: sid,
        task_name: 'lock_session',
      });
    expect((await lock(outsider, s.id)).statusCode).toBe(404);
    expect((await lock(applicant, s.id)).statusCode).toBe(403);
    expect((await lock(reviewer, other.s.id)).statusCode).toBe(404);
    const noTicket = await lock(reviewer, s.id, '');
    expect(noTicket.statusCode).toBe(400);
    expect(noTicket.json()).toEqual({ ticket_id: ['Give the ticket (ticket_id)'] });
    expect((await lock(reviewer, s.id)).json()).toEqual({ ok: [s.id] });
    await m.waitFor(() => m.msgs.some((x) => x.type === 'STATUS' && (x.data as Row).is_locked), 'locked');
    const kill = `/api/v1/terminal/tasks/kill-session-for-ticket/?ticket_id=${tk.id}`;
    expect((await applicant.post(kill, [s.id])).statusCode).toBe(403);
    expect((await reviewer.post(kill, [other.s.id])).statusCode).toBe(404);
    expect((await reviewer.post(kill, [s.id])).json()).toEqual({ ok: [s.id] });
    await m.closed;
    expect(m.msgs.at(-1)).toEqual({ type: 'CLOSE', reason: 'ended' });
    // The other session still runs, untouched.
    expect((await admin.get(`/api/v1/terminal/sessions/${other.s.id}/`)).json().is_finished).toBe(false);
    expect((await reviewer.get(`${T}/tickets/${tk.id}/session/`)).json()).toMatchObject({ id: s.id });
    await other.s.close();
  }, 90_000);

  it('records the session a login-asset approval let through, for its reviewer to watch', async () => {
    await makePerm(admin, { users: [ids.applicant], assets: [target.host.id], accounts: ['@ALL'] });
    const acl = await admin.post('/api/v1/acls/login-asset-acls/', {
      name: 'review tw_applicant',
      users: { type: 'ids', ids: [ids.applicant] },
      assets: { type: 'all' },
      accounts: ['@ALL'],
      action: 'review',
      reviewers: [ids.reviewer],
    });
    expect(acl.statusCode, acl.body).toBe(201);
    const ask = (query = '') =>
      applicant.post(`/api/v1/authentication/connection-token/${query}`, {
        asset: target.host.id,
        account: target.password.name,
        protocol: 'ssh',
        connect_method: 'web_cli',
      });
    const ticketId = (await ask('?create_ticket=1')).json().ticket_id as string;
    expect(ticketId).toBeTruthy();
    // Before a session, the ticket has none to show.
    expect((await reviewer.get(`${T}/tickets/${ticketId}/session/`)).statusCode).toBe(404);
    expect((await put(reviewer, `${T}/apply-login-asset-tickets/${ticketId}/approve/`)).statusCode).toBe(200);
    const token = await ask();
    expect(token.statusCode, token.body).toBe(201);

    const page = terminalClient(base, token.json().id, { cookie: applicant.jar.header() });
    await page.waitFor(() => page.msgs.some((x) => x.type === 'CONNECT'), 'CONNECT', 20_000);
    const sessionId = page.msgs.find((x) => x.type === 'CONNECT')!.id!;
    await expect
      .poll(async () => (await reviewer.get(`${T}/tickets/${ticketId}/session/`)).json(), { timeout: 10_000 })
      .toMatchObject({ id: sessionId, is_finished: false });

    expect(await refused(outsider, sessionId, ticketId)).toBe(NOT_RUNNING);
    expect(await refused(applicant, sessionId, ticketId)).toBe(NOT_RUNNING);
    const m = monitor(reviewer, sessionId, ticketId);
    await m.waitFor(() => m.msgs.some((x) => x.type === 'CONNECT'), 'CONNECT');
    page.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: 'echo via-$((5*5))\r' }));
    await m.waitFor(() => m.text().includes('via-25'), 'live output');
    page.ws.close();
    await m.closed;
  }, 90_000);
});
