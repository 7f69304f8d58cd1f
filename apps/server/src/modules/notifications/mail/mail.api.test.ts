import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  adminClient,
  createPeerApp,
  createTestApp,
  SessionClient,
  type TestApp,
} from '../../../../test-support/testApp.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../../test-support/smtpPeer.ts';
import { freePort } from '../../../../test-support/ports.ts';
import { makeAsset, makePerm, makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { requestAssets } from '../../../../test-support/tickets.ts';
import { drainOutbox, queueMails } from './outbox.ts';
import { rememberLanguage } from '../userLanguage.ts';
import { notifyExpiringPermissions } from '../../perms/expiryNotices.ts';

/**
 * Messages › Email against a real SMTP server on loopback (`smtp-server`, test-support/smtpPeer.ts):
 * the test button, the mails events send through the outbox (new user, account locked, expiring
 * permission in the user's language, a ticket to its approver), the retry when the server
 * refuses first, and two instances draining one outbox without sending a mail twice.
 */
let t: TestApp;
let admin: SessionClient;
let peer: SmtpPeer;
const EMAIL = '/api/v1/settings/setting/?category=email';
const TESTING = '/api/v1/settings/mail/testing/';

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await createTestApp({ JOB_HEARTBEAT_MS: '200' });
  admin = await adminClient(t.app);
  const res = await admin.patch(EMAIL, {
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: peer.port,
    EMAIL_FROM: 'gatehouse@corp.example',
    EMAIL_HOST_USER: 'mailer',
    EMAIL_HOST_PASSWORD: 'Mailer-secret-1',
    EMAIL_SUBJECT_PREFIX: '[GH] ',
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).not.toHaveProperty('EMAIL_HOST_PASSWORD');
}, 60_000);
afterAll(async () => {
  await t.close();
  await peer.close();
});
beforeEach(() => {
  peer.mails.length = 0;
});

const mailTo = (to: string) => peer.mails.filter((m) => m.to.includes(to));

describe('the test button', () => {
  it('sends a real mail with the form’s recipient and the stored, sealed password', async () => {
    const res = await admin.post(TESTING, { EMAIL_RECIPIENT: 'ops@corp.example' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('Sent a test mail to ops@corp.example');
    expect(peer.mails).toHaveLength(1);
    expect(peer.mails[0]).toMatchObject({
      from: 'gatehouse@corp.example',
      to: ['ops@corp.example'],
      subject: '[GH] Test mail from Gatehouse',
      user: 'mailer',
    });
    const row = await t.deps.database.db
      .selectFrom('settings_setting')
      .select(['value', 'encrypted'])
      .where('name', '=', 'EMAIL_HOST_PASSWORD')
      .executeTakeFirstOrThrow();
    expect(row.value).not.toContain('Mailer-secret-1');
  });

  it('answers the failure in the user’s language when nothing listens, and names bad fields', async () => {
    const closed = await freePort();
    const res = await admin.post(TESTING, { EMAIL_PORT: closed, EMAIL_RECIPIENT: 'ops@corp.example' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/^The mail could not be sent: .*ECONNREFUSED/);
    const zh = await admin.request({
      method: 'POST',
      url: TESTING,
      payload: { EMAIL_PORT: 70000, EMAIL_RECIPIENT: 'not-an-address' },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().EMAIL_PORT[0]).toMatch(/65535/);
    const bad = await admin.post(TESTING, { EMAIL_RECIPIENT: 'x y' });
    expect(bad.json()).toEqual({ EMAIL_RECIPIENT: ['Not an email address: x y'] });
  });

  it('is refused without settings.change_email', async () => {
    await makeUser(admin, 'plainuser');
    const user = new SessionClient(t.app);
    await user.login('plainuser', PASSWORD);
    expect((await user.post(TESTING, {})).statusCode).toBe(403);
    expect((await user.get(EMAIL)).statusCode).toBe(403);
  });
});

describe('mails of events, through the outbox', () => {
  it('a new user receives the created mail with the custom subject', async () => {
    const saved = await admin.patch('/api/v1/settings/setting/?category=email_content', {
      EMAIL_CUSTOM_USER_CREATED_SUBJECT: 'Welcome {name}',
      EMAIL_CUSTOM_USER_CREATED_BODY: 'Your login is {username}.\nSee you <soon>',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const u = await makeUser(admin, 'newcomer');
    await expect.poll(() => mailTo(u.email).length, { timeout: 10_000 }).toBe(1);
    const m = mailTo(u.email)[0]!;
    expect(m.subject).toBe('[GH] Welcome newcomer');
    expect(m.text).toContain('Your login is newcomer.<br>See you &lt;soon&gt;');
    expect(m.text).toContain('Hello newcomer,');
  });

  it('a locked account is told by mail as well as by site message', async () => {
    await admin.patch('/api/v1/settings/setting/?category=security', { SECURITY_LOGIN_LIMIT_COUNT: 3 });
    const u = await makeUser(admin, 'locky');
    await expect.poll(() => mailTo(u.email).length, { timeout: 10_000 }).toBe(1);
    for (let i = 0; i < 3; i++)
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/authentication/auth/',
        payload: { username: 'locky', password: 'wrong-password' },
        remoteAddress: '10.9.9.9',
      });
    await expect
      .poll(() => mailTo(u.email).map((m) => m.subject), { timeout: 10_000 })
      .toContain('[GH] Your account was locked');
  });

  it('an expiring permission is mailed in the user’s own language', async () => {
    const u = await makeUser(admin, 'lin');
    await rememberLanguage(t.deps.database.db, { id: u.id }, 'zh');
    await makePerm(admin, {
      name: 'db-soon',
      users: [u.id],
      date_expired: new Date(Date.now() + 86400e3).toISOString(),
    });
    await notifyExpiringPermissions(t.deps.database.db, t.deps.bus, t.deps.settings);
    await expect
      .poll(() => mailTo(u.email).map((m) => m.subject), { timeout: 10_000 })
      .toContain('[GH] 资产授权即将过期');
  });

  it('a server that refuses twice gets the mail on the third attempt', async () => {
    peer.refuse(2);
    const u = await makeUser(admin, 'patient');
    await expect.poll(() => mailTo(u.email).length, { timeout: 15_000 }).toBe(1);
    expect(peer.refused).toBe(2);
    const row = await t.deps.database.db
      .selectFrom('notifications_mailoutbox')
      .selectAll()
      .where('recipient', '=', u.email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 3, message_type: 'user_created' });
    expect(row.last_error).toBe('');
  });

  it('a ticket reaches its approver by mail, its link made absolute with SITE_URL', async () => {
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id as string;
    await t.deps.database.db
      .updateTable('users_user')
      .set({ email: 'approver@corp.example' })
      .where('id', '=', adminId)
      .execute();
    await makeUser(admin, 'applicant');
    const c = new SessionClient(t.app);
    await c.login('applicant', PASSWORD);
    const asset = await makeAsset(admin, [], undefined, 'mail-web');
    const ticket = await requestAssets(c, { title: 'need mail', apply_assets: [asset.id] });
    await expect
      .poll(() => mailTo('approver@corp.example').filter((m) => m.subject.endsWith('need mail')).length, {
        timeout: 10_000,
      })
      .toBe(1);
    const m = mailTo('approver@corp.example').find((x) => x.subject.endsWith('need mail'))!;
    expect(m.text).toContain(`href="http://127.0.0.1:8080/ui/tickets/tickets/${ticket.id}?type=apply_asset"`);
  });

  it('two instances drain one outbox and send each mail once', async () => {
    const other = await createPeerApp(t);
    try {
      const mails = Array.from({ length: 20 }, (_, i) => ({
        to: `bulk${i}@corp.example`,
        subject: `bulk ${i}`,
        html: '<p>x</p>',
        type: 'test',
      }));
      // Written without waking anyone, then drained by both instances at once.
      const silent = { publish: async () => undefined } as unknown as typeof t.deps.bus;
      await queueMails({ db: t.deps.database.db, bus: silent, settings: t.deps.settings }, mails);
      await Promise.all([
        drainOutbox(t.app, t.app.jobEngine.instanceId),
        drainOutbox(other.app, other.app.jobEngine.instanceId),
      ]);
      const bulk = () => peer.mails.filter((m) => m.subject.includes('bulk'));
      await expect.poll(() => bulk().length, { timeout: 15_000 }).toBe(20);
      // A heartbeat's drain may still be writing its last row: wait for every row to be done.
      const rows = () =>
        t.deps.database.db
          .selectFrom('notifications_mailoutbox')
          .select(['status', 'attempts', 'instance_id'])
          .where('recipient', 'like', 'bulk%')
          .execute();
      await expect
        .poll(async () => (await rows()).filter((r) => !(r.status === 'sent' && r.attempts === 1)))
        .toEqual([]);
      expect(new Set(bulk().map((m) => m.to[0])).size).toBe(20);
      expect(new Set((await rows()).map((r) => r.instance_id)).size).toBe(2);
    } finally {
      await other.close();
    }
  });
});
