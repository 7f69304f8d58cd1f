import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../test-support/smtpPeer.ts';
import { makeUser, PASSWORD } from '../../../test-support/perms.ts';

/**
 * Messages › Subscription (`/api/v1/notifications/backends/`, `system-msg-subscription/`): the
 * grouped list, changes checked, and every sender honouring them: a type without the site
 * message backend writes none, without email queues no mail, and its extra users receive it too.
 * The mail goes to a real SMTP server on loopback (test-support/smtpPeer.ts).
 */
let t: TestApp;
let admin: SessionClient;
let peer: SmtpPeer;
const N = '/api/v1/notifications/';
const SUB = `${N}system-msg-subscription/`;

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await createTestApp({ JOB_HEARTBEAT_MS: '200' });
  admin = await adminClient(t.app);
}, 60_000);
afterAll(async () => {
  await t.close();
  await peer.close();
});

const siteMessages = async (userId: string) =>
  (
    await t.deps.database.db
      .selectFrom('notifications_sitemessage as m')
      .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
      .select('c.subject')
      .where('m.user_id', '=', userId)
      .execute()
  ).map((r) => r.subject);

async function changePassword(username: string) {
  const c = new SessionClient(t.app);
  expect((await c.login(username, PASSWORD)).statusCode).toBe(200);
  const res = await c.request({
    method: 'PUT',
    url: '/api/v1/users/profile/password/',
    payload: { old_password: PASSWORD, new_password: 'Changed-pass-2', new_password_again: 'Changed-pass-2' },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

describe('subscriptions', () => {
  it('lists backends that can send now and the types grouped by category', async () => {
    expect((await admin.get(`${N}backends/`)).json()).toEqual([{ name: 'site_msg', name_display: 'Site message' }]);
    await admin.patch('/api/v1/settings/setting/?category=email', { EMAIL_HOST: '127.0.0.1', EMAIL_PORT: peer.port });
    expect((await admin.get(`${N}backends/`)).json().map((b: { name: string }) => b.name)).toEqual([
      'site_msg',
      'email',
    ]);
    const groups = (await admin.get(SUB)).json();
    const accounts = groups.find((g: { category: string }) => g.category === 'accounts');
    expect(accounts.category_label).toBe('Accounts');
    expect(accounts.children.find((c: { message_type: string }) => c.message_type === 'password_changed')).toEqual({
      message_type: 'password_changed',
      message_type_label: 'Password changed',
      users: [],
      groups: [],
      receive_backends: ['site_msg', 'email'],
      receivers: [],
    });
  });

  it('refuses unknown backends, users and types with messages, and people without the permission', async () => {
    const bad = await admin.patch(`${SUB}password_changed/`, { receive_backends: ['pigeon'], users: ['nobody'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      receive_backends: ['Unknown backend: pigeon'],
      users: ['Unknown users: nobody'],
    });
    expect((await admin.patch(`${SUB}made_up/`, { receive_backends: [] })).statusCode).toBe(404);
    expect(
      (
        await admin.request({ method: 'PUT', url: `${SUB}password_changed/`, payload: { receive_backends: [] } })
      ).json(),
    ).toHaveProperty('users');
    await makeUser(admin, 'outsider');
    const c = new SessionClient(t.app);
    await c.login('outsider', PASSWORD);
    expect((await c.get(SUB)).statusCode).toBe(403);
    expect((await c.patch(`${SUB}password_changed/`, { receive_backends: [] })).statusCode).toBe(403);
  });

  it('every sender follows the subscription: no site message, mail only, and extra receivers', async () => {
    const u = await makeUser(admin, 'subbed');
    const watcher = await makeUser(admin, 'watcher');
    const res = await admin.patch(`${SUB}password_changed/`, { receive_backends: ['email'], users: [watcher.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().receivers).toEqual(['watcher(watcher)']);
    await changePassword('subbed');
    await expect
      .poll(() =>
        peer.mails
          .filter((m) => m.subject.endsWith('Your password was changed'))
          .flatMap((m) => m.to)
          .sort(),
      )
      .toEqual([u.email, watcher.email].sort());
    expect(await siteMessages(u.id)).not.toContain('Your password was changed');
    await admin.patch(`${SUB}password_changed/`, { receive_backends: ['site_msg'], users: [] });
    const before = peer.mails.length;
    await changePassword('watcher');
    await expect.poll(() => siteMessages(watcher.id)).toContain('Your password was changed');
    expect(peer.mails.length).toBe(before);
    const queued = await t.deps.database.db
      .selectFrom('notifications_mailoutbox')
      .select('recipient')
      .where('recipient', '=', watcher.email)
      .where('message_type', '=', 'password_changed')
      .execute();
    // Only the first change, which watcher received as a subscriber by mail.
    expect(queued).toHaveLength(1);
  });
});
