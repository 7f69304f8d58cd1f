import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../../../test-support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const auth = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', payload: payload as object });

describe('token API for scripts and clients', () => {
  it('returns a bearer token with the contract shape, and a fresh one at every sign-in', async () => {
    const res = await auth({ username: 'admin', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.keyword).toBe('Bearer');
    expect(body.token).toHaveLength(36);
    expect(body.date_expired).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
    expect(body.user.username).toBe('admin');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authentication/tokens/',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(again.json().token).not.toBe(body.token);
  });

  it('authenticates API calls with Authorization: Bearer, and needs no CSRF header for writes', async () => {
    const { token } = (await auth({ username: 'admin', password: ADMIN_PASSWORD })).json();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().is_superuser).toBe(true);
  });

  it('refuses an unknown token with the contract message', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { authorization: 'Bearer 00000000-0000-0000-0000-000000000000' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Invalid token or cache refreshed.', code: 'authentication_failed' });
  });

  it('names missing fields, and reports a wrong password as password_failed', async () => {
    const missing = await auth({});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json()).sort()).toEqual(['password', 'username']);
    const wrong = await auth({ username: 'admin', password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('password_failed');
  });

  it('shares the lock with the login page', async () => {
    for (let i = 0; i < 6; i++) await auth({ username: 'admin', password: `bad${i}` });
    const locked = await auth({ username: 'admin', password: 'bad7' });
    expect(locked.json().error).toBe('block_login');
    const right = await auth({ username: 'admin', password: ADMIN_PASSWORD });
    expect(right.statusCode).toBe(400);
    expect(right.json().error).toBe('block_login');
    await t.deps.cache.delete('_LOGIN_BLOCK_admin');
  });
});
