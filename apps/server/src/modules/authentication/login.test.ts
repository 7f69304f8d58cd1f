import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, LOGIN_PATH, LOGOUT_PATH, SESSION_COOKIE, SESSION_EXPIRE_COOKIE } from '@gatehouse/contract';
import { ADMIN_PASSWORD, SessionClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('login page sign-in', () => {
  it('gives the page a CSRF cookie the browser can read', async () => {
    const res = await t.app.inject({ method: 'GET', url: LOGIN_PATH });
    const csrf = res.cookies.find((c) => c.name === CSRF_COOKIE);
    expect(csrf?.value).toMatch(/^[\w-]{20,}$/);
    expect(csrf?.httpOnly).toBeFalsy();
    expect(res.cookies.find((c) => c.name === 'SESSION_COOKIE_NAME_PREFIX')?.value).toBe('jms_');
  });

  it('refuses a login post that does not echo the CSRF cookie', async () => {
    const c = new SessionClient(t.app);
    await c.get(LOGIN_PATH);
    const res = await c.post(LOGIN_PATH, { username: 'admin', password: ADMIN_PASSWORD }, { 'x-csrftoken': 'forged' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ ok: false, error: 'csrf_failed' });
    expect(c.jar.values.has(SESSION_COOKIE)).toBe(false);
  });

  it('signs in, sets the contract cookies, and the session reads the profile', async () => {
    const c = new SessionClient(t.app);
    const res = await c.login('admin', ADMIN_PASSWORD, { next: '/ui/console/dashboard' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, next: '/ui/console/dashboard' });
    const session = res.cookies.find((x) => x.name === SESSION_COOKIE)!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe('Lax');
    expect(session.maxAge).toBeUndefined();
    expect(res.cookies.find((x) => x.name === SESSION_EXPIRE_COOKIE)?.value).toBe('close');
    const profile = await c.get('/api/v1/users/profile/');
    expect(profile.statusCode).toBe(200);
    expect(profile.json().username).toBe('admin');
  });

  it('makes the session persistent with "keep me signed in" (jms_session_expire=age)', async () => {
    const c = new SessionClient(t.app);
    const res = await c.login('admin', ADMIN_PASSWORD, { auto_login: true });
    expect(res.cookies.find((x) => x.name === SESSION_EXPIRE_COOKIE)?.value).toBe('age');
    expect(res.cookies.find((x) => x.name === SESSION_COOKIE)?.maxAge).toBe(86400);
  });

  it('never redirects to another site after login', async () => {
    const c = new SessionClient(t.app);
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const res = await c.login('admin', ADMIN_PASSWORD, { next });
      expect(res.json().next).toBe('/ui/');
    }
  });

  it('rotates the CSRF token at login and requires it for unsafe calls (401 without)', async () => {
    const c = new SessionClient(t.app);
    await c.get(LOGIN_PATH);
    const before = c.jar.values.get(CSRF_COOKIE);
    await c.post(LOGIN_PATH, { username: 'admin', password: ADMIN_PASSWORD });
    expect(c.jar.values.get(CSRF_COOKIE)).not.toBe(before);
    const forged = await c.request({
      method: 'POST',
      url: '/api/v1/authentication/auth/',
      headers: { 'x-csrftoken': 'nope' },
    });
    expect(forged.statusCode).toBe(400); // public endpoint: anonymous, so it asks for credentials instead
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/profile/',
      headers: { cookie: c.jar.header(), 'x-csrftoken': 'wrong' },
      payload: {},
    });
    expect(res.statusCode).toBe(401);
  });

  it('logs out: the session ends and the browser goes back to the login page', async () => {
    const c = new SessionClient(t.app);
    await c.login('admin', ADMIN_PASSWORD);
    const key = c.jar.values.get(SESSION_COOKIE)!;
    const res = await c.get(`${LOGOUT_PATH}?next=/ui/console/dashboard`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${LOGIN_PATH}?next=${encodeURIComponent('/ui/console/dashboard')}`);
    const reuse = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { cookie: `${SESSION_COOKIE}=${key}` },
    });
    expect(reuse.statusCode).toBe(401);
  });

  it('asks for both fields', async () => {
    const c = new SessionClient(t.app);
    await c.get(LOGIN_PATH);
    const res = await c.post(LOGIN_PATH, { username: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('This field is required.');
  });
});

describe('login failure lock', () => {
  it('counts down the tries, locks the username at the 7th failure, and refuses the 8th even with the right password', async () => {
    const c = new SessionClient(t.app);
    await c.get(LOGIN_PATH);
    for (let i = 1; i <= 6; i++) {
      const res = await c.post(LOGIN_PATH, { username: 'admin', password: `wrong-${i}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'password_failed' });
      expect(res.json().msg).toContain(`You can also try ${7 - i} times`);
    }
    const seventh = await c.post(LOGIN_PATH, { username: 'admin', password: 'wrong-7' });
    expect(seventh.json()).toMatchObject({ error: 'block_login' });
    const eighth = await c.post(LOGIN_PATH, { username: 'admin', password: ADMIN_PASSWORD });
    expect(eighth.statusCode).toBe(400);
    expect(eighth.json().msg).toBe(
      'The account has been locked (please contact admin to unlock it or try again after 30 minutes)',
    );
    expect(c.jar.values.has(SESSION_COOKIE)).toBe(false);
    await t.deps.cache.delete('_LOGIN_BLOCK_admin');
  });

  it('tells the lock in the language of the request', async () => {
    const c = new SessionClient(t.app);
    await c.get(LOGIN_PATH);
    const res = await c.post(
      LOGIN_PATH,
      { username: 'nobody', password: 'x' },
      { cookie: `${c.jar.header()}; django_language=zh-hans` },
    );
    expect(res.json().msg).toContain('您输入的用户名或密码不正确');
  });

  it('does not reveal whether a username exists', async () => {
    const c = new SessionClient(t.app);
    await c.get(LOGIN_PATH);
    const unknown = await c.post(LOGIN_PATH, { username: 'ghost', password: 'x' });
    const known = await c.post(LOGIN_PATH, { username: 'admin', password: 'x' });
    expect(unknown.json().error).toBe(known.json().error);
    await t.deps.cache.delete(`_LOGIN_LIMIT_admin_127.0.0.1`);
  });
});
