import type * as PasswordModule from '../../platform/crypto/password.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILTIN_ROLE_IDS, CSRF_COOKIE, LOGIN_PATH } from '@gatehouse/contract';
import {
  ADMIN_PASSWORD,
  adminClient,
  createTestApp,
  SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { createUser, USER_PASSWORD } from '../../../test-support/auth.ts';

/**
 * Issue 11, authentication: the lock counts before the hash (no race), per-address throttling,
 * `next` parsed as a URL, and credentials that end with a password change or a deactivation.
 * Password checks are counted by wrapping the one verification function.
 */
const checks = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../platform/crypto/password.ts', async (original) => {
  const real = await original<typeof PasswordModule>();
  return {
    ...real,
    verifyPassword: async (password: string, stored: string | null | undefined) => {
      checks.n += 1;
      return real.verifyPassword(password, stored);
    },
  };
});

let t: TestApp;
let admin: SessionClient;
const U = '/api/v1/users/users/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());
beforeEach(async () => {
  // Every test starts with the address unlocked (they all come from the same test address).
  await t.deps.cache.delete('_LOGIN_BLOCK_127.0.0.1');
  await t.deps.cache.delete('_LOGIN_LIMIT_127.0.0.1');
});

const token = (username: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/authentication/auth/',
    payload: { username, password },
    remoteAddress: ip,
  });
const bearer = (tok: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/users/profile/', headers: { authorization: `Bearer ${tok}` } });

describe('the login lock under concurrency', () => {
  it('checks at most SECURITY_LOGIN_LIMIT_COUNT of 200 parallel guesses, and a right password after the limit is refused', async () => {
    await createUser(t, 'race_victim');
    // The user lock alone is under test here (the address lock would close first at 50).
    await t.deps.settings.set('SECURITY_LOGIN_IP_LIMIT_COUNT', 1000);
    const limit = Number(await t.deps.settings.get('SECURITY_LOGIN_LIMIT_COUNT'));
    checks.n = 0;
    const guesses = Array.from({ length: 199 }, (_, i) => token('race_victim', `wrong-${i}`));
    guesses.push(token('race_victim', USER_PASSWORD));
    const answers = await Promise.all(guesses);
    expect(checks.n).toBeLessThanOrEqual(limit);
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(0);
    expect(answers.at(-1)!.json().error).toBe('block_login');
    expect((await token('race_victim', USER_PASSWORD)).json().error).toBe('block_login');
    await t.deps.settings.set('SECURITY_LOGIN_IP_LIMIT_COUNT', 50);
  }, 60_000);

  it('counts wrong old passwords of a password change towards the same lock', async () => {
    await createUser(t, 'old_guess');
    const c = new SessionClient(t.app);
    expect((await c.login('old_guess', USER_PASSWORD)).statusCode).toBe(200);
    const limit = Number(await t.deps.settings.get('SECURITY_LOGIN_LIMIT_COUNT'));
    for (let i = 0; i < limit; i += 1) {
      const res = await c.request({
        method: 'PUT',
        url: '/api/v1/users/profile/password/',
        payload: { old_password: `guess-${i}`, new_password: 'Brand-new-1', new_password_again: 'Brand-new-1' },
      });
      expect(res.statusCode).toBe(400);
    }
    expect((await token('old_guess', USER_PASSWORD)).json().error).toBe('block_login');
  });
});

describe('per-address throttling', () => {
  it('locks an address after SECURITY_LOGIN_IP_LIMIT_COUNT failures across usernames, with the catalogue message', async () => {
    await t.deps.settings.set('SECURITY_LOGIN_IP_LIMIT_COUNT', 5);
    try {
      await createUser(t, 'spray_ok');
      const ip = '10.9.8.7';
      checks.n = 0;
      for (let i = 0; i < 5; i += 1)
        expect((await token(`spray_${i}`, 'Spring2026!', ip)).json().error).toBe('password_failed');
      const refused = await token('spray_ok', USER_PASSWORD, ip);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'block_ip' });
      expect(refused.json().msg).toContain('address has been locked');
      expect(checks.n).toBe(5);
      // Another address is not concerned; a success gives its count back (only failures add up).
      expect((await token('spray_ok', USER_PASSWORD, '10.9.8.6')).statusCode).toBe(201);
    } finally {
      await t.deps.settings.set('SECURITY_LOGIN_IP_LIMIT_COUNT', 50);
    }
  });
});

describe('next after sign-in', () => {
  it.each([
    ['/\t/evil.example/', '/ui/'],
    ['/\\evil.example', '/ui/'],
    ['\\\\evil.example', '/ui/'],
    ['//evil.example/x', '/ui/'],
    ['/\n/evil.example', '/ui/'],
    ['https://evil.example/', '/ui/'],
    ['javascript:alert(1)', '/ui/'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/ui/console/assets?x=1#top', '/ui/console/assets?x=1#top'],
    ['/core/auth/logout/', '/ui/'],
  ])('%j leads to %j', async (next, expected) => {
    const c = new SessionClient(t.app);
    const res = await c.login('admin', ADMIN_PASSWORD, { next });
    expect(res.json()).toMatchObject({ ok: true, next: expected });
  });

  it('never redirects a signed-in visit of the login page to another origin', async () => {
    const res = await admin.get(`${LOGIN_PATH}?next=${encodeURIComponent('/\t/evil.example/')}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/ui/');
  });
});

describe('credentials end when they should', () => {
  async function signedIn(username: string, password = USER_PASSWORD) {
    const c = new SessionClient(t.app);
    expect((await c.login(username, password)).statusCode).toBe(200);
    const tok = (await token(username, password)).json().token as string;
    expect((await bearer(tok)).statusCode).toBe(200);
    return { c, tok };
  }

  it('an admin reset ends the bearer tokens and sessions; a fresh sign-in gets a fresh token', async () => {
    const id = await createUser(t, 'reset_me');
    const { c, tok } = await signedIn('reset_me');
    expect(
      (
        await admin.request({
          method: 'PUT',
          url: `${U}${id}/password/`,
          payload: { password: 'Reset-pass-2' },
          headers: { 'x-jms-org': 'root' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await bearer(tok)).statusCode).toBe(401);
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401);
    const fresh = (await token('reset_me', 'Reset-pass-2')).json().token as string;
    expect(fresh).not.toBe(tok);
    expect((await bearer(fresh)).statusCode).toBe(200);
  });

  it('a change of one’s own password ends the tokens and the other sessions, not this one', async () => {
    await createUser(t, 'own_change');
    const { c, tok } = await signedIn('own_change');
    const other = (await signedIn('own_change')).c;
    const res = await c.request({
      method: 'PUT',
      url: '/api/v1/users/profile/password/',
      payload: { old_password: USER_PASSWORD, new_password: 'Own-new-pass1', new_password_again: 'Own-new-pass1' },
    });
    expect(res.statusCode).toBe(200);
    expect((await bearer(tok)).statusCode).toBe(401);
    expect((await other.get('/api/v1/users/profile/')).statusCode).toBe(401);
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(200);
  });

  it('a deactivation ends them, and a reactivation does not revive them', async () => {
    const id = await createUser(t, 'deactivate_me');
    await t.deps.database.db
      .insertInto('rbac_rolebinding')
      .values({
        id: crypto.randomUUID(),
        user_id: id,
        role_id: BUILTIN_ROLE_IDS.User,
        scope: 'system',
        org_id: null,
        created_by: 'test',
        date_created: new Date().toISOString(),
      })
      .execute();
    const { c, tok } = await signedIn('deactivate_me');
    const patch = (is_active: boolean) =>
      admin.request({ method: 'PATCH', url: `${U}${id}/`, payload: { is_active }, headers: { 'x-jms-org': 'root' } });
    expect((await patch(false)).statusCode).toBe(200);
    expect((await patch(true)).statusCode).toBe(200);
    expect((await bearer(tok)).statusCode).toBe(401);
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401);
    expect(c.jar.values.has(CSRF_COOKIE)).toBe(true);
  });
});
