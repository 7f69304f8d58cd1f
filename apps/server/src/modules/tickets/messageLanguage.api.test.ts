import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE, LOGIN_PATH } from '@gatehouse/contract';
import { SessionClient, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { notifyExpiringPermissions } from '../perms/expiryNotices.ts';
import { PASSWORD, makeAsset, makePerm, makeUser, type Row } from '../../../test-support/perms.ts';
import { rememberLanguage } from '../notifications/userLanguage.ts';
import { put, requestAssets, T } from '../../../test-support/tickets.ts';

/**
 * Messages the server writes are in their recipient's language: the language of the user's
 * signed-in requests, stored with the user (`notifications/userLanguage.ts`); English for a user
 * never seen. Covers the permission expiry notice and the ticket notices.
 */
let t: TestApp;
let admin: SessionClient;
let lin: SessionClient;
let emma: SessionClient;
const u: Record<string, Row> = {};

const storedLang = async (id: string) =>
  (await t.deps.database.db.selectFrom('users_user').select('lang').where('id', '=', id).executeTakeFirstOrThrow())
    .lang;

const inbox = (userId: string) =>
  t.deps.database.db
    .selectFrom('notifications_sitemessage as m')
    .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
    .select(['c.subject', 'c.message'])
    .where('m.user_id', '=', userId)
    .orderBy('m.date_created')
    .execute();

async function signInWith(username: string, language: { cookie?: string; accept?: string }): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  if (language.cookie) c.jar.values.set(LANGUAGE_COOKIE, language.cookie);
  await c.get(LOGIN_PATH, language.accept ? { 'accept-language': language.accept } : {});
  const res = await c.post(
    LOGIN_PATH,
    { username, password: PASSWORD },
    language.accept ? { 'accept-language': language.accept } : {},
  );
  expect(res.statusCode, res.body).toBe(200);
  return c;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  for (const name of ['lin', 'emma', 'nico']) u[name] = await makeUser(admin, name);
  lin = await signInWith('lin', { cookie: 'zh-hans' });
  emma = await signInWith('emma', { accept: 'en-US,en;q=0.9' });
});
afterAll(async () => t.close());

describe("the user's stored language", () => {
  it('is the language of the sign-in and of later signed-in requests that name one', async () => {
    expect(await storedLang(u.lin!.id)).toBe('zh');
    expect(await storedLang(u.emma!.id)).toBe('en');
    expect(await storedLang(u.nico!.id)).toBe('');
    expect((await emma.get('/api/v1/users/profile/', { 'accept-language': 'ja,en;q=0.5' })).statusCode).toBe(200);
    expect(await storedLang(u.emma!.id)).toBe('ja');
    // A request naming no language (a script) leaves it as it is.
    expect((await emma.get('/api/v1/users/profile/')).statusCode).toBe(200);
    expect(await storedLang(u.emma!.id)).toBe('ja');
    expect((await emma.get('/api/v1/users/profile/', { 'accept-language': 'en' })).statusCode).toBe(200);
    expect(await storedLang(u.emma!.id)).toBe('en');
  });

  it('is written only when it changes', async () => {
    const { db } = t.deps.database;
    // The user as read says "zh" while the row says "en": an unchanged language writes nothing.
    await rememberLanguage(db, { id: u.emma!.id, lang: 'zh' }, 'zh');
    expect(await storedLang(u.emma!.id)).toBe('en');
    await rememberLanguage(db, { id: u.emma!.id, lang: 'en' }, 'zh');
    expect(await storedLang(u.emma!.id)).toBe('zh');
    await db.updateTable('users_user').set({ lang: 'en' }).where('id', '=', u.emma!.id).execute();
  });

  it('is in no user API shape', async () => {
    const profile = (await lin.get('/api/v1/users/profile/')).json();
    expect(profile).not.toHaveProperty('lang');
    const listed = (await admin.get(`/api/v1/users/users/${u.lin!.id}/`)).json();
    expect(listed.username).toBe('lin');
    expect(listed).not.toHaveProperty('lang');
  });
});

describe('messages in the recipient language', () => {
  it('sends the permission expiry notice in Chinese, English, and English to a user never signed in', async () => {
    await makePerm(admin, {
      name: 'db-expiring',
      users: [u.lin!.id, u.emma!.id, u.nico!.id],
      date_expired: new Date(Date.now() + 2 * 86400e3).toISOString(),
    });
    expect(await notifyExpiringPermissions(t.deps.database.db, t.deps.bus, t.deps.settings)).toBe(3);
    expect(await inbox(u.lin!.id)).toEqual([
      { subject: '资产授权即将过期', message: expect.stringContaining('资产授权 &quot;db-expiring&quot; 将于') },
    ]);
    for (const id of [u.emma!.id, u.nico!.id])
      expect(await inbox(id)).toEqual([
        {
          subject: 'Asset permission expires soon',
          message: expect.stringContaining('Your asset permission &quot;db-expiring&quot;'),
        },
      ]);
  });

  it('tells each of a ticket in their language: the assignee and the applicant', async () => {
    const asset = await makeAsset(admin, [], undefined, 'lang-web');
    // The administrator (the default flow's assignee) now reads Chinese; emma English.
    admin.jar.values.set(LANGUAGE_COOKIE, 'zh-hans');
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id as string;
    const byEmma = await requestAssets(emma, { title: 'need web', apply_assets: [asset.id] });
    const toAdmin = (await inbox(adminId)).filter((m) => m.subject.includes('need web'));
    expect(toAdmin.map((m) => m.subject)).toEqual(['待审批工单：need web']);
    expect(toAdmin[0]!.message).toContain('等待您处理');
    expect((await put(admin, `${T}/apply-asset-tickets/${byEmma.id}/approve/`)).statusCode).toBe(200);
    expect((await inbox(u.emma!.id)).map((m) => m.subject)).toContain('Your ticket was approved: need web');

    const byLin = await requestAssets(lin, { title: '需要 web', apply_assets: [asset.id] });
    expect((await put(admin, `${T}/apply-asset-tickets/${byLin.id}/reject/`)).statusCode).toBe(200);
    const toLin = (await inbox(u.lin!.id)).filter((m) => m.subject.includes('需要 web'));
    expect(toLin.map((m) => m.subject)).toEqual(['您的工单已拒绝：需要 web']);
    expect(toLin[0]!.message).toContain('已拒绝您的工单');
  });
});

describe('account messages an administrator causes', () => {
  it("are in the owner's language, not the administrator's", async () => {
    admin.jar.values.set(LANGUAGE_COOKIE, 'zh-hans');
    const res = await admin.request({
      method: 'PATCH',
      url: `/api/v1/users/users/${u.emma!.id}/`,
      payload: { password: 'Changed-pass-9' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Sent after the write's transaction, not awaited by it.
    await expect
      .poll(async () => (await inbox(u.emma!.id)).map((m) => m.subject))
      .toContain('Your password was changed');
  });
});
