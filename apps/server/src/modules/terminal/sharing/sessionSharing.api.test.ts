import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import type { ShareEvent } from '../gateway/control.ts';
import { adminIdentity, hostWithAccounts, openShell, signedInMember } from '../../../../test-support/gateway.ts';
import { MONITOR_SOCKET_PATH } from '../monitorSocket.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { socketClient } from '../../../../test-support/webTerminal.ts';
import { MAX_FAILURES } from './sharingRules.ts';

/**
 * Session sharing against a real OpenSSH: the owner shares a running session, a colleague joins
 * with the verify code, watches (readonly) or types into it (writable); the owner hears who came
 * and went; every refusal (wrong code, not invited, expired, stopped, guessed too often, someone
 * else's session, sharing turned off) says why and lets nobody in.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let base: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
let adminUser: { id: string; name: string; username: string };
let joiner: SessionClient;
let joinerId: string;
let other: SessionClient;
let otherId: string;

const SHARINGS = '/api/v1/terminal/session-sharings/';
const JOINS = '/api/v1/terminal/session-join-records/';

const signedIn = async (name: string) => {
  const { client, id } = await signedInMember(t, admin, name, BUILTIN_ROLE_IDS.OrgUser);
  return { c: client, id };
};

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
  target = await hostWithAccounts(admin, sshd);
  adminUser = await adminIdentity(t.app);
  ({ c: joiner, id: joinerId } = await signedIn('share_joiner'));
  ({ c: other, id: otherId } = await signedIn('share_other'));
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

async function sharedSession(body: Record<string, unknown> = {}) {
  const { s, term } = await openShell(t.app, {
    user: adminUser,
    assetId: target.host.id,
    accountId: target.password.id,
  });
  const events: ShareEvent[] = [];
  s.on('share', (e: ShareEvent) => events.push(e));
  const res = await admin.post(SHARINGS, { session: s.id, expired_time: 5, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return { s, term, events, sharing: res.json() as { id: string; verify_code: string; url: string } };
}

const patch = (url: string, payload: Record<string, unknown>) => admin.request({ method: 'PATCH', url, payload });

function attach(c: SessionClient, recordId: string) {
  return socketClient(`${base}${MONITOR_SOCKET_PATH}?join_record_id=${recordId}`, { cookie: c.jar.header() });
}

async function join(c: SessionClient, sharing: { id: string; verify_code: string }) {
  const res = await c.post(JOINS, { sharing: sharing.id, verify_code: sharing.verify_code.toLowerCase() });
  expect(res.statusCode, res.body).toBe(201);
  const m = attach(c, res.json().id);
  await m.waitFor(() => m.msgs.some((x) => x.type === 'CONNECT'), 'CONNECT');
  return m;
}

describe('sharing a running session', () => {
  it('lets an invited colleague watch with the code; the owner hears it; stopping sends them away', async () => {
    const { s, term, events, sharing } = await sharedSession({ users: [joinerId] });
    expect(sharing).toMatchObject({
      session: s.id,
      creator: adminUser.id,
      is_active: true,
      expired_time: 5,
      action_permission: { value: 'readonly', label: 'Read only' },
      users_display: expect.stringMatching(/share_joiner\(share_joiner\)$/),
      url: expect.stringMatching(new RegExp(`/luna/share/${sharing.id}/$`)),
    });
    expect(sharing.verify_code).toMatch(/^[A-Z2-9]{6}$/);
    expect(sharing).not.toHaveProperty('users');
    // Whom the owner may invite: members of the session's org, found by name, never themselves.
    const found = (await admin.get(`${SHARINGS}users/?session=${s.id}&search=share_`)).json() as { username: string }[];
    expect(found.map((u) => u.username)).toEqual(['share_joiner', 'share_other']);
    expect((await admin.get(`${SHARINGS}users/?session=${s.id}&search=%25`)).json()).toEqual([]);
    expect((await joiner.get(`${SHARINGS}users/?session=${s.id}`)).statusCode).toBe(400);
    // Only its creator lists it.
    expect((await admin.get(`${SHARINGS}?session=${s.id}`)).json().map((x: { id: string }) => x.id)).toEqual([
      sharing.id,
    ]);
    expect((await joiner.get(SHARINGS)).json()).toEqual([]);
    expect((await joiner.get(`${SHARINGS}${sharing.id}/`)).statusCode).toBe(404);

    await term.run('echo before-join');
    const wrong = await joiner.post(JOINS, { sharing: sharing.id, verify_code: 'WRONG1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'The verify code is wrong.' });

    const m = await join(joiner, sharing);
    expect(m.msgs.find((x) => x.type === 'CONNECT')!.data).toMatchObject({
      session: { id: s.id },
      can_terminate: false,
      permission: 'readonly',
    });
    await m.waitFor(() => m.text().includes('before-join'), 'the current screen');
    await term.type('echo live-$((6*7))\r');
    await m.waitFor(() => m.text().includes('live-42'), 'live output');
    // A read-only joiner's keys never reach the session.
    m.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: 'echo intruder\r' }));
    await term.run('echo after');
    expect(term.text).not.toContain('intruder');
    await expect
      .poll(() => events)
      .toContainEqual({
        event: 'joined',
        user: expect.stringMatching(/share_joiner\(share_joiner\)$/),
        permission: 'readonly',
      });

    // The audit trail: the refused attempt and the join, both naming the sharing.
    const records = (await admin.get(`${JOINS}?session=${s.id}`)).json() as Record<string, unknown>[];
    expect(records.map((r) => [r.is_success, r.sharing, r.is_finished]).sort()).toEqual([
      [false, sharing.id, true],
      [true, sharing.id, false],
    ]);

    const stopped = await patch(`${SHARINGS}${sharing.id}/`, { is_active: false });
    expect(stopped.json()).toMatchObject({ is_active: false });
    await m.closed;
    expect(m.msgs.find((x) => x.type === 'TERMINAL_ERROR')?.err).toBe('This sharing has been stopped.');
    await expect.poll(() => events.map((e) => e.event)).toEqual(['joined', 'left']);
    const again = await joiner.post(JOINS, { sharing: sharing.id, verify_code: sharing.verify_code });
    expect(again.json()).toMatchObject({ error: 'This sharing has been stopped.' });
    // The owner's session goes on.
    await term.run('echo still-here');
    await s.close();
  }, 60_000);

  it('lets a writable sharing’s joiner type into the session, under its rules and record', async () => {
    const { s, term, sharing } = await sharedSession({ action_permission: 'writable' });
    const m = await join(joiner, sharing);
    expect(m.msgs.find((x) => x.type === 'CONNECT')!.data).toMatchObject({ permission: 'writable' });
    for (const ch of 'echo from-joiner-$((40+2))\r') {
      m.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: ch }));
      await new Promise((r) => setTimeout(r, 15));
    }
    await term.waitFor('from-joiner-42');
    await m.waitFor(() => m.text().includes('from-joiner-42'), 'the joiner sees the result');
    await expect
      .poll(async () =>
        ((await admin.get(`/api/v1/terminal/commands/?session_id=${s.id}`)).json() as { input: string }[]).map(
          (c) => c.input,
        ),
      )
      .toContain('echo from-joiner-$((40+2))');
    // Any member of the org may join a sharing that names nobody; the session's end ends the watch.
    const o = await join(other, sharing);
    await s.close();
    await Promise.all([m.closed, o.closed]);
  }, 60_000);

  it('refuses what it must, and says why', async () => {
    const { s, sharing } = await sharedSession({ users: [otherId] });
    // Not invited: refused before the code is even looked at.
    const notInvited = await joiner.post(JOINS, { sharing: sharing.id, verify_code: sharing.verify_code });
    expect(notInvited.statusCode).toBe(403);
    expect(notInvited.json()).toMatchObject({ error: 'You are not invited to this session.' });
    // Someone else's session cannot be shared, and looks like none.
    const foreign = await joiner.post(SHARINGS, { session: s.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().session).toEqual(['No running session of yours has this id.']);
    // Bad fields.
    const bad = await admin.post(SHARINGS, {
      session: s.id,
      expired_time: 0,
    });
    expect(bad.json().expired_time).toEqual([
      "The sharing's duration must be a whole number of minutes from 1 to 1440.",
    ]);
    expect((await admin.post(SHARINGS, { session: s.id, action_permission: 'root' })).statusCode).toBe(400);
    const stranger = await admin.post(SHARINGS, { session: s.id, users: ['00000000-0000-0000-0000-00000000dead'] });
    expect(stranger.json().users[0]).toContain('00000000-0000-0000-0000-00000000dead');
    expect((await admin.post(SHARINGS, { session: s.id, users: 'everyone' })).statusCode).toBe(400);

    // A join record opens only its own joiner's socket.
    const ok = await other.post(JOINS, { sharing: sharing.id, verify_code: sharing.verify_code });
    expect(ok.statusCode).toBe(201);
    const stolen = attach(joiner, ok.json().id);
    await stolen.closed;
    expect(stolen.msgs[0]?.err).toBe('This join is not yours or is no longer valid. Open the sharing link again.');

    // Expired.
    await t.deps.database.db
      .updateTable('terminal_sessionsharing')
      .set({ date_created: new Date(Date.now() - 6 * 60_000).toISOString() })
      .where('id', '=', sharing.id)
      .execute();
    const late = await other.post(JOINS, { sharing: sharing.id, verify_code: sharing.verify_code });
    expect(late.json()).toMatchObject({ error: 'This sharing has expired. Ask for a new link.' });

    // Guessing: MAX_FAILURES wrong codes stop the sharing, even for the right code afterwards.
    const open = (await admin.post(SHARINGS, { session: s.id })).json() as { id: string; verify_code: string };
    const answers: string[] = [];
    for (let i = 0; i < MAX_FAILURES; i++)
      answers.push((await joiner.post(JOINS, { sharing: open.id, verify_code: `GUESS${i}` })).json().error);
    expect(answers.at(-1)).toBe('Too many wrong verify codes: this sharing has been stopped.');
    const right = await joiner.post(JOINS, { sharing: open.id, verify_code: open.verify_code });
    expect(right.json()).toMatchObject({ error: 'Too many wrong verify codes: this sharing has been stopped.' });
    // Its owner cannot start it again either.
    expect((await patch(`${SHARINGS}${open.id}/`, { is_active: true })).json().is_active).toBe(false);

    // Turned off in the settings: nobody shares or joins.
    await t.deps.settings.set('SECURITY_SESSION_SHARE', false);
    try {
      expect((await admin.post(SHARINGS, { session: s.id })).statusCode).toBe(405);
      expect((await other.post(JOINS, { sharing: sharing.id, verify_code: sharing.verify_code })).statusCode).toBe(405);
    } finally {
      await t.deps.settings.set('SECURITY_SESSION_SHARE', true);
    }
    // What a component asks before letting someone join: monitor rights in the session's org.
    const validate = (user_id: string) =>
      admin.post('/api/v1/terminal/sessions/join/validate/', { user_id, session_id: s.id });
    expect((await validate(adminUser.id)).json()).toEqual({ ok: true, msg: '' });
    expect((await validate(otherId)).json()).toEqual({ ok: false, msg: 'You may not monitor this session.' });
    expect((await joiner.post('/api/v1/terminal/sessions/join/validate/', { user_id: joinerId })).statusCode).toBe(403);
    await s.close();
    expect((await validate(adminUser.id)).json()).toEqual({
      ok: false,
      msg: 'This session is not running: there is nothing to watch.',
    });
    // A finished session cannot be shared.
    const ended = await admin.post(SHARINGS, { session: s.id });
    expect(ended.json().session).toEqual(['This session cannot be shared: it has ended or is not a terminal session.']);
  }, 60_000);
});
