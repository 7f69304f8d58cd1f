import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { SessionClient, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD, createUser } from '../../../test-support/auth.ts';
import { listenOnLoopback, openSiteMsgSocket } from '../../../test-support/siteMsgSocket.ts';

/** Site messages: the API, sanitised HTML, and the live unread count. */
let t: TestApp;
let admin: SessionClient;
let user: SessionClient;
let userId: string;
const SM = '/api/v1/notifications/site-messages/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  userId = await createUser(t, 'msg_ivy');
  user = new SessionClient(t.app);
  await user.login('msg_ivy', USER_PASSWORD);
});
afterAll(async () => t.close());

const send = (body: Record<string, unknown>) => admin.post(`${SM}send/`, body);

describe('site messages API', () => {
  it('sends to users, lists with has_read, offset and limit, and counts unread', async () => {
    for (let i = 1; i <= 3; i++)
      expect((await send({ subject: `Notice ${i}`, message: `<p>Body ${i}</p>`, user_ids: [userId] })).statusCode).toBe(
        201,
      );
    expect((await user.get(`${SM}unread-total/`)).json()).toEqual({ total: 3 });
    const page = (await user.get(`${SM}?offset=0&limit=2&has_read=false`)).json();
    expect(page.count).toBe(3);
    expect(page.results).toHaveLength(2);
    expect(page.results[0]).toMatchObject({
      has_read: false,
      read_at: null,
      content: { subject: 'Notice 3', message: '<p>Body 3</p>' },
    });
    expect(page.results[0].content.sender).toMatchObject({ name: 'Administrator' });
    expect(page.results[0].date_created).toMatch(/^\d{4}\/\d{2}\/\d{2} /);
    expect(new URL(page.next).searchParams.get('offset')).toBe('2');
    expect(Array.isArray((await user.get(SM)).json())).toBe(true);
    // Another user sees none of them.
    expect((await admin.get(`${SM}unread-total/`)).json().total).toBe(0);
  });

  it('marks chosen messages read, then all', async () => {
    const unread = (await user.get(`${SM}?has_read=false`)).json() as { id: string }[];
    const res = await user.request({ method: 'PATCH', url: `${SM}mark-as-read/`, payload: { ids: [unread[0]!.id] } });
    expect(res.json()).toEqual({ detail: 'ok' });
    expect((await user.get(`${SM}unread-total/`)).json().total).toBe(unread.length - 1);
    const read = (await user.get(`${SM}?has_read=true`)).json();
    expect(read).toHaveLength(1);
    expect(read[0].read_at).not.toBeNull();
    expect((await user.request({ method: 'PATCH', url: `${SM}mark-as-read/`, payload: {} })).statusCode).toBe(400);
    expect((await user.request({ method: 'PATCH', url: `${SM}mark-as-read-all/` })).json()).toEqual({ detail: 'ok' });
    expect((await user.get(`${SM}unread-total/`)).json().total).toBe(0);
  });

  it('never returns a script or an unsafe link from stored HTML', async () => {
    await send({
      subject: 'Links',
      message:
        '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">bad</a> <a href="https://example.com">good</a><img src=x onerror=alert(1)></p>',
      user_ids: [userId],
    });
    const [latest] = (await user.get(`${SM}?has_read=false`)).json();
    const html: string = latest.content.message;
    expect(html).not.toMatch(/script|onclick|onerror|javascript:|<img/i);
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">good</a>');
    expect((await user.get(`${SM}${latest.id}/`)).json().content.message).toBe(html);
  });

  it('lets only superusers send, and validates the body', async () => {
    expect((await user.post(`${SM}send/`, { subject: 'x', message: 'y', user_ids: [userId] })).statusCode).toBe(403);
    const bad = await send({ subject: '', message: '', user_ids: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['message', 'subject', 'user_ids']);
    expect((await send({ subject: 's', message: 'm' })).statusCode).toBe(400);
  });

  it('broadcasts to every active user', async () => {
    const before = (await admin.get(`${SM}unread-total/`)).json().total;
    expect((await send({ subject: 'To all', message: 'hello', is_broadcast: true })).statusCode).toBe(201);
    expect((await admin.get(`${SM}unread-total/`)).json().total).toBe(before + 1);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.app.inject({ method: 'GET', url: SM })).statusCode).toBe(401);
  });
});

describe('the site-message WebSocket', () => {
  it('pushes the unread count on connect, when a message arrives, and when messages are read', async () => {
    const base = await listenOnLoopback(t.app);
    await user.request({ method: 'PATCH', url: `${SM}mark-as-read-all/` });
    const ws = await openSiteMsgSocket(base, { cookie: `${SESSION_COOKIE}=${user.jar.values.get(SESSION_COOKIE)}` });
    try {
      expect(await ws.next()).toEqual({ type: 'unread_count', unread_count: 0 });
      await send({ subject: 'Live', message: 'now', user_ids: [userId] });
      expect(await ws.next()).toEqual({ type: 'unread_count', unread_count: 1 });
      await user.request({ method: 'PATCH', url: `${SM}mark-as-read-all/` });
      expect(await ws.next()).toEqual({ type: 'unread_count', unread_count: 0 });
    } finally {
      ws.close();
    }
  });

  it('accepts a Bearer token, and closes an anonymous connection', async () => {
    const base = await listenOnLoopback(t.app);
    const { token } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/authentication/auth/',
        payload: { username: 'msg_ivy', password: USER_PASSWORD },
      })
    ).json();
    const ws = await openSiteMsgSocket(base, { authorization: `Bearer ${token}` });
    expect(await ws.next()).toMatchObject({ type: 'unread_count' });
    ws.close();
    const anon = await openSiteMsgSocket(base, {});
    expect(await anon.closed).toBe(4001);
  });
});

describe('system messages', () => {
  it('tells a user whose account the sign-in lock closed', async () => {
    const id = await createUser(t, 'msg_lock');
    const c = new SessionClient(t.app);
    for (let i = 0; i < 7; i++) await c.login('msg_lock', `wrong-${i}`);
    const subjects = await t.deps.database.db
      .selectFrom('notifications_sitemessage as m')
      .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
      .select('c.subject')
      .where('m.user_id', '=', id)
      .execute();
    expect(subjects.map((s) => s.subject)).toEqual(['Your account was locked']);
    await t.deps.cache.delete('_LOGIN_BLOCK_msg_lock');
  });
});
