import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { SessionClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { encryptGatehouse, encryptLegacy } from '../../../test-support/transportSecret.ts';
import { USER_PASSWORD, browserPublicKey, createUser } from '../../../test-support/auth.ts';

/** The user's own password (`profile/password/`) and profile flags. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const PW = '/api/v1/users/profile/password/';

async function signedIn(username: string, password = USER_PASSWORD): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  const res = await c.login(username, password);
  if (!res.json().ok) throw new Error(res.body);
  await c.get('/ui/'); // the console page brings the browser's new key
  return c;
}

const change = (c: SessionClient, old_password: string, new_password: string, again = new_password) =>
  c.request({ method: 'PUT', url: PW, payload: { old_password, new_password, new_password_again: again } });

describe("changing one's password", () => {
  it('checks the old password, the repetition and the rules, with field errors', async () => {
    await createUser(t, 'pw_amy');
    const c = await signedIn('pw_amy');
    const missing = await c.request({ method: 'PATCH', url: PW, payload: {} });
    expect(Object.keys(missing.json()).sort()).toEqual(['new_password', 'new_password_again', 'old_password']);
    expect((await change(c, 'wrong', 'Another-1!')).json()).toEqual({ old_password: ['Old password error'] });
    expect((await change(c, USER_PASSWORD, 'Another-1!', 'Another-2!')).json()).toEqual({
      new_password_again: ['The newly set password is inconsistent'],
    });
    expect((await change(c, USER_PASSWORD, 'abc')).json()).toEqual({
      new_password: ['Password must be at least 6 characters long'],
    });
    await t.deps.settings.set('SECURITY_PASSWORD_UPPER_CASE', true);
    try {
      expect((await change(c, USER_PASSWORD, 'lowercase-only1')).json().new_password[0]).toContain('upper case');
    } finally {
      await t.deps.settings.set('SECURITY_PASSWORD_UPPER_CASE', false);
    }
  });

  it('changes it with encrypted fields, clears the first-login flag, ends other sessions and tells the user', async () => {
    const id = await createUser(t, 'pw_ben');
    const other = await signedIn('pw_ben');
    const c = await signedIn('pw_ben');
    const key = browserPublicKey(c);
    const res = await c.request({
      method: 'PATCH',
      url: PW,
      payload: {
        old_password: encryptLegacy(key, USER_PASSWORD),
        new_password: encryptGatehouse(key, 'Brand-new-1!'),
        new_password_again: encryptGatehouse(key, 'Brand-new-1!'),
      },
    });
    expect(res.statusCode).toBe(200);
    const row = await t.deps.database.db
      .selectFrom('users_user')
      .select(['is_first_login', 'date_password_last_updated'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.is_first_login)).toBe(false);
    expect(Date.parse(row.date_password_last_updated!)).toBeGreaterThan(Date.now() - 10_000);
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(200);
    expect((await other.get('/api/v1/users/profile/')).statusCode).toBe(401);
    expect((await new SessionClient(t.app).login('pw_ben', 'Brand-new-1!')).json().ok).toBe(true);
    const msgs = await t.deps.database.db
      .selectFrom('notifications_sitemessage as m')
      .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
      .select(['c.subject', 'c.message'])
      .where('m.user_id', '=', id)
      .execute();
    expect(msgs.map((m) => m.subject)).toEqual(['Your password was changed']);
    expect(msgs[0]!.message).not.toContain('Brand-new');
  });

  it('refuses the last OLD_PASSWORD_HISTORY_LIMIT_COUNT passwords', async () => {
    await createUser(t, 'pw_cat');
    const c = await signedIn('pw_cat');
    const history = ['Pass-word-1', 'Pass-word-2', 'Pass-word-3', 'Pass-word-4', 'Pass-word-5'];
    let current = USER_PASSWORD;
    for (const p of history) {
      expect((await change(c, current, p)).statusCode).toBe(200);
      current = p;
    }
    // Current + the 4 before it are refused; the 5th back (the first password) is allowed again.
    for (const p of ['Pass-word-5', 'Pass-word-2']) {
      expect((await change(c, current, p)).json()).toEqual({
        new_password: ['The new password cannot be the last 5 passwords'],
      });
    }
    expect((await change(c, current, USER_PASSWORD)).statusCode).toBe(200);
  });
});

describe('PATCH profile/', () => {
  it('clears is_first_login and updates the writable fields only', async () => {
    await createUser(t, 'pw_dan');
    const c = await signedIn('pw_dan');
    expect((await c.get('/api/v1/users/profile/')).json().is_first_login).toBe(true);
    const res = await c.request({
      method: 'PATCH',
      url: '/api/v1/users/profile/',
      payload: { is_first_login: false, wechat: 'dan_w', username: 'hacker' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_first_login: false, wechat: 'dan_w', username: 'pw_dan' });
    expect(
      (await c.request({ method: 'PATCH', url: '/api/v1/users/profile/', payload: { mfa_level: 7 } })).statusCode,
    ).toBe(400);
    expect(c.jar.values.has(SESSION_COOKIE)).toBe(true);
  });
});
