import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { SessionClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { encryptGatehouse } from '../../../test-support/transportSecret.ts';
import { USER_PASSWORD, bindTotp, browserPublicKey, codeAt, createUser } from '../../../test-support/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const CONFIRM = '/api/v1/authentication/confirm/';
const GUARDED = '/api/v1/authentication/otp/bind/start/';

async function signedIn(username: string): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  await c.login(username, USER_PASSWORD);
  return c;
}

async function editSession(c: SessionClient, patch: Record<string, unknown>) {
  const id = createHash('sha256').update(c.jar.values.get(SESSION_COOKIE)!).digest('hex');
  const row = await t.deps.database.db
    .selectFrom('auth_session')
    .select('data')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await t.deps.database.db
    .updateTable('auth_session')
    .set({ data: JSON.stringify({ ...JSON.parse(row.data), ...patch }) })
    .where('id', '=', id)
    .execute();
}

describe('GET confirm/ picks the strongest way the user can confirm', () => {
  it('offers the password to a local user without MFA, and answers 404 for mfa', async () => {
    await createUser(t, 'cf_anna');
    const c = await signedIn('cf_anna');
    expect((await c.get(`${CONFIRM}?confirm_type=relogin`)).json()).toEqual({ confirm_type: 'password', content: '' });
    expect((await c.get(`${CONFIRM}?confirm_type=password`)).json()).toEqual({ confirm_type: 'password', content: '' });
    const mfa = await c.get(`${CONFIRM}?confirm_type=mfa`);
    expect(mfa.statusCode).toBe(404);
    expect(mfa.json()).toEqual({ error: 'This action require verify your MFA' });
    expect((await c.get(`${CONFIRM}?confirm_type=nope`)).statusCode).toBe(400);
  });

  it('offers MFA once an authenticator is bound', async () => {
    await createUser(t, 'cf_ben');
    const c = await signedIn('cf_ben');
    await bindTotp(c);
    expect((await c.get(`${CONFIRM}?confirm_type=relogin`)).json()).toEqual({
      confirm_type: 'mfa',
      content: [{ name: 'otp', disabled: false, display_name: 'OTP', placeholder: 'OTP verification code' }],
    });
  });
});

describe('POST confirm/ and the guard', () => {
  it('confirms with the password (plain or encrypted), for 300 seconds', async () => {
    await createUser(t, 'cf_cleo');
    const c = await signedIn('cf_cleo');
    await editSession(c, { login_time: new Date(Date.now() - 600_000).toISOString() });
    expect((await c.post(GUARDED, {})).json().code).toBe('relogin');
    const wrong = await c.post(CONFIRM, { confirm_type: 'password', secret_key: 'wrong' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'Authentication failed (password incorrect)' });
    await c.get('/ui/'); // sign-in rotated the browser key: the console page brings the new one
    const ok = await c.post(CONFIRM, {
      confirm_type: 'password',
      secret_key: encryptGatehouse(browserPublicKey(c), USER_PASSWORD),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toBe('ok');
    expect((await c.post(GUARDED, {})).statusCode).toBe(200);
    await editSession(c, { confirm_time: Math.floor(Date.now() / 1000) - 301 });
    expect((await c.post(GUARDED, {})).json()).toEqual({
      code: 'relogin',
      detail: 'This action require confirm current user',
    });
    await t.deps.cache.delete('_LOGIN_LIMIT_cf_cleo_127.0.0.1');
  });

  it('accepts relogin only within 5 minutes of signing in', async () => {
    await createUser(t, 'cf_dora');
    const c = await signedIn('cf_dora');
    expect((await c.post(CONFIRM, { confirm_type: 'relogin', secret_key: '' })).statusCode).toBe(200);
    await editSession(c, { login_time: new Date(Date.now() - 6 * 60_000).toISOString() });
    const late = await c.post(CONFIRM, { confirm_type: 'relogin', secret_key: '' });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ error: 'Login time has exceeded 5 minutes, please login again' });
  });

  it('confirms with an MFA code at the mfa level, held for SECURITY_MFA_VERIFY_TTL', async () => {
    await createUser(t, 'cf_emil');
    const c = await signedIn('cf_emil');
    const secret = await bindTotp(c);
    const bad = await c.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'otp', secret_key: '12345' });
    expect(bad.json()).toEqual({ error: 'MFA Error, please check' });
    expect(
      (await c.post(CONFIRM, { confirm_type: 'mfa', mfa_type: 'otp', secret_key: codeAt(secret, 0) })).statusCode,
    ).toBe(200);
    const { requireConfirm } = await import('./confirm.ts');
    const now = Math.floor(Date.now() / 1000);
    const reqWith = (level: number, time: number) =>
      ({
        server: t.app,
        lang: 'en',
        headers: {},
        session: { data: { confirm_level: level, confirm_time: time } },
      }) as unknown as Parameters<typeof requireConfirm>[0];
    await expect(requireConfirm(reqWith(3, now - 3500), 'mfa')).resolves.toBeUndefined();
    await expect(requireConfirm(reqWith(3, now - 3601), 'mfa')).rejects.toMatchObject({
      statusCode: 400,
      body: { code: 'mfa' },
    });
    await expect(requireConfirm(reqWith(2, now), 'mfa')).rejects.toMatchObject({ body: { code: 'mfa' } });
    // A higher level covers weaker requirements, within their own 300 s.
    await expect(requireConfirm(reqWith(3, now - 200), 'password')).resolves.toBeUndefined();
    await expect(requireConfirm(reqWith(3, now - 400), 'relogin')).rejects.toMatchObject({ body: { code: 'relogin' } });
  });

  it('works for Bearer callers too, and is off when SECURITY_VIEW_AUTH_NEED_MFA is false', async () => {
    await createUser(t, 'cf_finn');
    const { token } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/authentication/auth/',
        payload: { username: 'cf_finn', password: USER_PASSWORD },
      })
    ).json();
    const bearer = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'POST', url: GUARDED, headers: bearer, payload: {} })).statusCode).toBe(400);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: CONFIRM,
      headers: bearer,
      payload: { confirm_type: 'password', secret_key: USER_PASSWORD },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: GUARDED, headers: bearer, payload: {} })).statusCode).toBe(200);

    await createUser(t, 'cf_gus');
    const c = await signedIn('cf_gus');
    await editSession(c, { login_time: new Date(Date.now() - 600_000).toISOString() });
    await t.deps.settings.set('SECURITY_VIEW_AUTH_NEED_MFA', false);
    try {
      expect((await c.post(GUARDED, {})).statusCode).toBe(200);
    } finally {
      await t.deps.settings.set('SECURITY_VIEW_AUTH_NEED_MFA', true);
    }
  });
});
