import net from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { codeAt } from '../../../../test-support/auth.ts';
import { ldapSettings, startSlapd, type Slapd } from '../../../../test-support/slapd.ts';

/** Sign-in by LDAP bind against a real slapd: user creation, login log, lock, timeouts. */
let t: TestApp;
let admin: SessionClient;
let slapd: Slapd;
const SETTINGS = '/api/v1/settings/setting/?category=ldap';

const settings = (extra: Record<string, unknown> = {}) =>
  ldapSettings(slapd, { AUTH_LDAP_CONNECT_TIMEOUT: 2, ...extra });

const auth = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', payload: { username, password } });

/** The user's latest login-log row, its status a boolean in both databases. */
async function lastLogin(username: string) {
  const row = await t.deps.database.db
    .selectFrom('audits_userloginlog')
    .selectAll()
    .where('username', '=', username)
    .orderBy('datetime', 'desc')
    .executeTakeFirst();
  return row && { ...row, status: Boolean(row.status) };
}

beforeAll(async () => {
  slapd = await startSlapd({
    users: [
      { username: 'alice', password: 'Alice-pass-1', name: 'Alice Liddell', groups: ['dev'] },
      { username: 'bob', password: 'Bob-pass-1' },
      { username: 'nomail', password: 'Nomail-pass-1', email: null },
      { username: 'paren(x)', password: 'Paren-pass-1' },
    ],
  });
  t = await createTestApp();
  admin = await adminClient(t.app);
  const res = await admin.patch(SETTINGS, settings());
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  slapd.stop();
});

describe('LDAP sign-in', () => {
  it('signs a directory user in on the login page, creating the user with source ldap', async () => {
    const c = new SessionClient(t.app);
    const res = await c.login('alice', 'Alice-pass-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ok).toBe(true);
    const user = await t.deps.database.db
      .selectFrom('users_user')
      .select(['id', 'source', 'name', 'email', 'password'])
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ source: 'ldap', name: 'Alice Liddell', email: 'alice@example.org', password: '' });
    const orgs = await t.deps.database.db
      .selectFrom('rbac_rolebinding')
      .select('org_id')
      .where('user_id', '=', user.id)
      .where('scope', '=', 'org')
      .execute();
    expect(orgs.map((o) => o.org_id)).toEqual([DEFAULT_ORG_ID]);
    expect(await lastLogin('alice')).toMatchObject({ status: true, backend: 'ldap' });
    expect((await c.get('/api/v1/users/profile/')).json().source).toMatchObject({ value: 'ldap' });
  });

  it('issues a bearer token through the token API, the login log naming the ldap backend', async () => {
    const res = await auth('bob', 'Bob-pass-1');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user.username).toBe('bob');
    expect(await lastLogin('bob')).toMatchObject({ status: true, backend: 'ldap' });
  });

  it('escapes the username in the filter: parentheses neither break nor widen the search', async () => {
    expect((await auth('paren(x)', 'Paren-pass-1')).statusCode).toBe(201);
    expect((await auth('*', 'Paren-pass-1')).statusCode).toBe(400);
  });

  it('refuses a wrong password and counts it toward the lock', async () => {
    const first = await auth('bob', 'wrong');
    expect(first.statusCode).toBe(400);
    expect(first.json().error).toBe('password_failed');
    expect(await lastLogin('bob')).toMatchObject({ status: false, reason: 'password_failed', backend: 'ldap' });
    for (let i = 0; i < 10; i++) {
      const r = await auth('bob', 'wrong');
      if (r.json().error === 'block_login') break;
    }
    const locked = await auth('bob', 'Bob-pass-1');
    expect(locked.json().error).toBe('block_login');
  });

  it('refuses a directory entry without an email address, with the reason', async () => {
    const res = await auth('nomail', 'Nomail-pass-1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'user_invalid' });
    expect(res.json().msg).toContain('no email');
  });

  it('signs in only existing users under ONLY_ALLOW_EXIST_USER_AUTH', async () => {
    await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', true);
    slapd.add([{ username: 'carol', password: 'Carol-pass-1' }]);
    const res = await auth('carol', 'Carol-pass-1');
    expect(res.json()).toMatchObject({ error: 'user_not_exist' });
    await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', false);
    expect((await auth('carol', 'Carol-pass-1')).statusCode).toBe(201);
  });

  it('refuses a filter that finds several entries: no way to tell whose password it is', async () => {
    const wide = '(|(cn=%(user)s)(objectClass=inetOrgPerson))';
    expect((await admin.patch(SETTINGS, { AUTH_LDAP_SEARCH_FILTER: wide })).statusCode).toBe(200);
    expect((await auth('carol', 'Carol-pass-1')).json().error).toBe('password_failed');
    expect((await admin.patch(SETTINGS, { AUTH_LDAP_SEARCH_FILTER: '(cn=%(user)s)' })).statusCode).toBe(200);
  });

  it('asks a directory user for MFA like anyone, the backend kept through the MFA step', async () => {
    await t.deps.settings.set('SECURITY_MFA_AUTH', 1);
    slapd.add([{ username: 'dave', password: 'Dave-pass-1' }]);
    const c = new SessionClient(t.app);
    const first = await c.login('dave', 'Dave-pass-1');
    expect(first.json()).toMatchObject({ ok: false, error: 'mfa_unset' });
    const start = await c.post('/core/auth/login/otp/start/', {});
    const done = await c.post('/core/auth/login/otp/bind/', { code: codeAt(start.json().secret) });
    expect(done.json()).toMatchObject({ ok: true });
    expect(await lastLogin('dave')).toMatchObject({ status: true, backend: 'ldap', mfa: 1 });
    await t.deps.settings.set('SECURITY_MFA_AUTH', 0);
  });

  it('keeps local users on their local password', async () => {
    expect((await auth('admin', 'Alice-pass-1')).statusCode).toBe(400);
  });

  it('ends in a timeout, not a hang, when the directory does not answer; the attempt is not counted', async () => {
    // A server that accepts the connection and never answers.
    const silent = net.createServer(() => undefined).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as net.AddressInfo;
    const patched = await admin.patch(SETTINGS, {
      AUTH_LDAP_SERVER_URI: `ldap://127.0.0.1:${port}`,
      AUTH_LDAP_CONNECT_TIMEOUT: 1,
    });
    expect(patched.statusCode).toBe(200);
    const start = Date.now();
    const res = await auth('alice', 'Alice-pass-1');
    const took = Date.now() - start;
    silent.close();
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5000);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ldap_unavailable');
    expect(res.json().msg).toMatch(/did not answer/);
    expect(await lastLogin('alice')).toMatchObject({ status: false, reason: 'ldap_unavailable', backend: 'ldap' });
    // Given back: the counter of alice's failures is where it was (none).
    expect(await t.deps.cache.get('_LOGIN_LIMIT_alice_127.0.0.1')).toBeFalsy();
    expect((await admin.patch(SETTINGS, settings())).statusCode).toBe(200);
  });

  it('refuses local password changes of directory users', async () => {
    const c = new SessionClient(t.app);
    expect((await c.login('alice', 'Alice-pass-1')).statusCode).toBe(200);
    const res = await c.request({
      method: 'PUT',
      url: '/api/v1/users/profile/password/',
      payload: { old_password: 'Alice-pass-1', new_password: 'New-pass-12', new_password_again: 'New-pass-12' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('not_local_user');
    const { id } = await t.deps.database.db
      .selectFrom('users_user')
      .select('id')
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    const reset = await admin.request({
      method: 'PUT',
      url: `/api/v1/users/users/${id}/password/`,
      payload: { password: 'New-pass-12!' },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().password[0]).toMatch(/signs in through ldap/);
  });
});
