import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH, SESSION_COOKIE } from '@gatehouse/contract';
import { SessionClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD, bindTotp, codeAt, createUser } from '../../../test-support/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const OTP = '/api/v1/authentication/otp/';

async function signedIn(username: string): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  const res = await c.login(username, USER_PASSWORD);
  if (!res.json().ok) throw new Error(res.body);
  return c;
}

async function unreadSubjects(userId: string): Promise<string[]> {
  const rows = await t.deps.database.db
    .selectFrom('notifications_sitemessage as m')
    .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
    .select('c.subject')
    .where('m.user_id', '=', userId)
    .orderBy('m.date_created')
    .execute();
  return rows.map((r) => r.subject);
}

describe('binding an OTP authenticator', () => {
  it('asks for re-verification first, then shows an otpauth URI and a QR code; the first valid code binds', async () => {
    const id = await createUser(t, 'otp_alice');
    const c = await signedIn('otp_alice');
    const guarded = await c.post(`${OTP}bind/start/`, {});
    expect(guarded.statusCode).toBe(400);
    expect(guarded.json()).toEqual({ code: 'relogin', detail: 'This action require confirm current user' });

    expect(
      (await c.post('/api/v1/authentication/confirm/', { confirm_type: 'password', secret_key: USER_PASSWORD }))
        .statusCode,
    ).toBe(200);
    const start = await c.post(`${OTP}bind/start/`, {});
    expect(start.statusCode).toBe(200);
    const { otpauth_url, secret, qr_code } = start.json();
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Gatehouse:otp_alice\?/);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);

    const wrong = await c.post(`${OTP}bind/`, { code: '000000' === codeAt(secret) ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect((await c.get(OTP)).json().is_bound).toBe(false);
    const ok = await c.post(`${OTP}bind/`, { code: codeAt(secret) });
    expect(ok.json()).toEqual({ msg: 'ok' });
    expect((await c.get(OTP)).json()).toMatchObject({ is_bound: true, mfa_level: 1, mfa_enabled: true });

    const row = await t.deps.database.db
      .selectFrom('users_user')
      .select(['otp_secret_key', 'mfa_level'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.otp_secret_key).toMatch(/^gh1\$/);
    expect(row.otp_secret_key).not.toContain(secret);
    expect(t.deps.secretBox.decrypt(row.otp_secret_key!)).toBe(secret);
    expect(await unreadSubjects(id)).toContain('MFA enabled on your account');
  });
});

describe('signing in with MFA', () => {
  let secret: string;
  let id: string;
  beforeAll(async () => {
    id = await createUser(t, 'otp_bob');
    secret = await bindTotp(await signedIn('otp_bob'));
  });

  it('asks for the code after the password, and signs in with it', async () => {
    const c = new SessionClient(t.app);
    const first = await c.login('otp_bob', USER_PASSWORD, { next: '/ui/workbench/' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      ok: false,
      error: 'mfa_required',
      msg: 'MFA required',
      data: { choices: ['otp'], url: '/core/auth/login/mfa/' },
    });
    expect(c.jar.values.has(SESSION_COOKIE)).toBe(false);
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401);

    const short = await c.post('/core/auth/login/mfa/', { mfa_type: 'otp', code: '12345' });
    expect(short.json()).toMatchObject({ ok: false, msg: 'MFA Error, please check' });
    const done = await c.post('/core/auth/login/mfa/', { mfa_type: 'otp', code: codeAt(secret, 0) });
    expect(done.json()).toEqual({ ok: true, next: '/ui/workbench/' });
    expect((await c.get('/api/v1/users/profile/')).json().username).toBe('otp_bob');
  });

  it('accepts a code once only', async () => {
    const code = codeAt(secret, 1);
    const a = new SessionClient(t.app);
    await a.login('otp_bob', USER_PASSWORD);
    expect((await a.post('/core/auth/login/mfa/', { code })).json().ok).toBe(true);
    const b = new SessionClient(t.app);
    await b.login('otp_bob', USER_PASSWORD);
    expect((await b.post('/core/auth/login/mfa/', { code })).json()).toMatchObject({ ok: false, error: 'mfa_failed' });
    await t.deps.cache.delete('_MFA_LIMIT_otp_bob_127.0.0.1');
  });

  it('refuses the code step without the password step', async () => {
    const c = new SessionClient(t.app);
    await c.get(LOGIN_PATH);
    expect((await c.post('/core/auth/login/mfa/', { code: '123456' })).json()).toMatchObject({
      ok: false,
      error: 'session_empty',
    });
  });

  it('counts wrong codes and locks MFA at the limit, telling the user by site message', async () => {
    const c = new SessionClient(t.app);
    await c.login('otp_bob', USER_PASSWORD);
    const bad = codeAt(secret, 0) === '999999' ? '999998' : '999999';
    for (let i = 1; i <= 6; i++) {
      const res = await c.post('/core/auth/login/mfa/', { code: bad });
      expect(res.json().msg).toBe(
        `OTP code invalid, or server time error, You can also try ${7 - i} times (The account will be temporarily locked for 30 minutes)`,
      );
    }
    expect((await c.post('/core/auth/login/mfa/', { code: bad })).json().error).toBe('block_mfa');
    expect((await c.post('/core/auth/login/mfa/', { code: codeAt(secret, 2) })).json().error).toBe('block_mfa');
    expect(await unreadSubjects(id)).toContain('Your account was locked');
    await t.deps.cache.delete('_MFA_BLOCK_otp_bob');
  });

  it('follows the token API flow: mfa_required, challenge with the cookie, then the token', async () => {
    const c = new SessionClient(t.app);
    const first = await c.post('/api/v1/authentication/auth/', { username: 'otp_bob', password: USER_PASSWORD });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      error: 'mfa_required',
      msg: 'MFA required',
      data: { choices: ['otp'], url: '/api/v1/authentication/mfa/challenge/' },
    });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authentication/mfa/challenge/',
      payload: { type: 'otp', code: '123456' },
    });
    expect(anonymous.statusCode).toBe(401);
    const wrong = await c.post('/api/v1/authentication/mfa/challenge/', { type: 'otp', code: '12' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('mfa_failed');
    expect(
      (await c.post('/api/v1/authentication/mfa/verify/', { type: 'otp', code: codeAt(secret, 2) })).json(),
    ).toEqual({ msg: 'ok' });
    const token = await c.post('/api/v1/authentication/auth/', { username: 'otp_bob', password: USER_PASSWORD });
    expect(token.statusCode).toBe(201);
    expect(token.json().keyword).toBe('Bearer');
    // The pending sign-in is used up.
    expect(
      (await c.post('/api/v1/authentication/auth/', { username: 'otp_bob', password: USER_PASSWORD })).json().error,
    ).toBe('mfa_required');
  });

  it('unbinds with a valid code only', async () => {
    const id2 = await createUser(t, 'otp_carol');
    const carol = await signedIn('otp_carol');
    const s2 = await bindTotp(carol);
    const used = await carol.post(`${OTP}unbind/`, { code: codeAt(s2, -1) });
    expect(used.statusCode).toBe(400);
    expect(used.json().error).toBe('mfa_failed');
    expect((await carol.post(`${OTP}unbind/`, { code: codeAt(s2, 0) })).json()).toEqual({ msg: 'ok' });
    const row = await t.deps.database.db
      .selectFrom('users_user')
      .select(['otp_secret_key', 'mfa_level'])
      .where('id', '=', id2)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ otp_secret_key: null, mfa_level: 0 });
    expect(await unreadSubjects(id2)).toContain('MFA removed from your account');
    expect((await new SessionClient(t.app).login('otp_carol', USER_PASSWORD)).json().ok).toBe(true);
  });
});

describe('MFA forced by SECURITY_MFA_AUTH', () => {
  it('makes a user without an authenticator bind one during sign-in', async () => {
    await createUser(t, 'forced_dan');
    await t.deps.settings.set('SECURITY_MFA_AUTH', 1);
    try {
      const c = new SessionClient(t.app);
      const first = await c.login('forced_dan', USER_PASSWORD);
      expect(first.json()).toMatchObject({
        ok: false,
        error: 'mfa_unset',
        msg: 'MFA unset, please set first',
        data: { url: '/core/auth/login/otp/start/' },
      });
      const token = await t.app.inject({
        method: 'POST',
        url: '/api/v1/authentication/auth/',
        payload: { username: 'forced_dan', password: USER_PASSWORD },
      });
      expect(token.statusCode).toBe(400);
      expect(token.json()).toEqual({ error: 'MFA unset, please set first' });
      const start = await c.post('/core/auth/login/otp/start/', {});
      const { secret } = start.json();
      const done = await c.post('/core/auth/login/otp/bind/', { code: codeAt(secret) });
      expect(done.json()).toEqual({ ok: true, next: '/ui/' });
      expect((await c.get('/api/v1/users/profile/')).json().username).toBe('forced_dan');
    } finally {
      await t.deps.settings.set('SECURITY_MFA_AUTH', 0);
    }
  });
});
