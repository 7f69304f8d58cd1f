import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { codeAt, createUser } from '../../../../test-support/auth.ts';
import { OAUTH2_CLIENT, OIDC_CLIENT, startOidcProvider, type TestIdp } from '../../../../test-support/oidcProvider.ts';

/**
 * OpenID Connect and OAuth2 sign-in against a real OpenID provider (oidc-provider, started here on
 * loopback): the redirect, the provider's own pages, the callback, the user, the session, sign-out.
 */
const SITE = 'http://gatehouse.test';
let t: TestApp;
let admin: SessionClient;
let idp: TestIdp;

async function lastLogin(username: string) {
  const row = await t.deps.database.db
    .selectFrom('audits_userloginlog')
    .selectAll()
    .where('username', '=', username)
    .orderBy('datetime', 'desc')
    .executeTakeFirst();
  return row && { ...row, status: Boolean(row.status) };
}

/** Starts at our login route, signs in at the provider, returns our callback's answer. */
async function signIn(c: SessionClient, provider: 'openid' | 'oauth2', login: string, next = '/ui/audits/') {
  const start = await c.get(`/core/auth/${provider}/login/?next=${encodeURIComponent(next)}`);
  expect(start.statusCode, start.body).toBe(302);
  const back = await idp.signIn(start.headers.location as string, login);
  return { back, res: await c.get(`${back.pathname}${back.search}`) };
}

beforeAll(async () => {
  idp = await startOidcProvider(SITE);
  t = await createTestApp();
  admin = await adminClient(t.app);
  const oidc = await admin.patch('/api/v1/settings/setting/?category=oidc', {
    AUTH_OPENID: true,
    BASE_SITE_URL: SITE,
    AUTH_OPENID_PROVIDER_ENDPOINT: idp.issuer,
    AUTH_OPENID_CLIENT_ID: OIDC_CLIENT.id,
    AUTH_OPENID_CLIENT_SECRET: OIDC_CLIENT.secret,
  });
  expect(oidc.statusCode, oidc.body).toBe(200);
  const oauth2 = await admin.patch('/api/v1/settings/setting/?category=oauth2', {
    AUTH_OAUTH2: true,
    AUTH_OAUTH2_PROVIDER: 'Test IdP',
    AUTH_OAUTH2_CLIENT_ID: OAUTH2_CLIENT.id,
    AUTH_OAUTH2_CLIENT_SECRET: OAUTH2_CLIENT.secret,
    AUTH_OAUTH2_SCOPE: 'openid profile email',
    AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT: `${idp.issuer}/auth`,
    AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT: `${idp.issuer}/token`,
    AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT: `${idp.issuer}/me`,
    AUTH_OAUTH2_PROVIDER_END_SESSION_ENDPOINT: `${idp.issuer}/session/end`,
  });
  expect(oauth2.statusCode, oauth2.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

describe('OpenID Connect sign-in', () => {
  it('signs in through the provider, creating the user with source openid, and returns to next', async () => {
    const c = new SessionClient(t.app);
    const { res } = await signIn(c, 'openid', 'olivia');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/ui/audits/');
    const me = (await c.get('/api/v1/users/profile/')).json();
    expect(me).toMatchObject({ username: 'olivia', name: 'User olivia', email: 'olivia@idp.test' });
    expect(me.source).toMatchObject({ value: 'openid' });
    expect(await lastLogin('olivia')).toMatchObject({ status: true, backend: 'openid' });
    const logs = (await admin.get('/api/v1/audits/login-logs/?username=olivia')).json();
    expect(logs.results?.[0] ?? logs[0]).toMatchObject({ backend_display: 'OpenID' });
  });

  it('keeps next on this site: another origin goes to the console home', async () => {
    const { res } = await signIn(new SessionClient(t.app), 'openid', 'olivia', '//evil.example/x');
    expect(res.headers.location).toBe('/ui/');
  });

  it('refuses a replayed callback and a callback in another browser, with a login-log entry', async () => {
    const c = new SessionClient(t.app);
    const { back } = await signIn(c, 'openid', 'oscar');
    const again = await c.get(`${back.pathname}${back.search}`);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin('')).toMatchObject({ status: false, reason: 'state_invalid', backend: 'openid' });

    // The victim's browser handed an attacker's callback (login CSRF): not signed in.
    const attacker = new SessionClient(t.app);
    const start = await attacker.get('/core/auth/openid/login/');
    const stolen = await idp.signIn(start.headers.location as string, 'mallory');
    const victim = new SessionClient(t.app);
    await victim.get(LOGIN_PATH);
    const res = await victim.get(`${stolen.pathname}${stolen.search}`);
    expect(res.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect((await victim.get('/api/v1/users/profile/')).statusCode).toBe(401);
  });

  it('signs out at the provider too (end-session with the ID token)', async () => {
    const c = new SessionClient(t.app);
    await signIn(c, 'openid', 'olivia');
    const out = await c.get('/core/auth/logout/');
    expect(out.statusCode).toBe(302);
    const target = new URL(out.headers.location as string);
    expect(target.origin).toBe(idp.issuer);
    expect(target.searchParams.get('id_token_hint')).toBeTruthy();
    expect(target.searchParams.get('post_logout_redirect_uri')).toBe(`${SITE}${LOGIN_PATH}`);
    expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401);
  });

  it('never signs in a local user of the same name, and only existing users when told so', async () => {
    await createUser(t, 'lena');
    const { res } = await signIn(new SessionClient(t.app), 'openid', 'lena');
    expect(res.headers.location).toBe(`${LOGIN_PATH}?error=user_invalid`);
    expect(await lastLogin('lena')).toMatchObject({ status: false, reason: 'user_invalid', backend: 'openid' });

    await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', true);
    try {
      const only = await signIn(new SessionClient(t.app), 'openid', 'newcomer');
      expect(only.res.headers.location).toBe(`${LOGIN_PATH}?error=user_not_exist`);
    } finally {
      await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', false);
    }
  });

  it('asks for MFA after the provider under SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', async () => {
    await t.deps.settings.set('SECURITY_MFA_AUTH', 1);
    try {
      const c = new SessionClient(t.app);
      await c.get(LOGIN_PATH);
      const { res } = await signIn(c, 'openid', 'olivia');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?mfa=unset&next=%2Fui%2Faudits%2F`);
      expect((await c.get('/api/v1/users/profile/')).statusCode).toBe(401);
      // The login page binds an authenticator with the pending sign-in, which signs in.
      const started = await c.post('/core/auth/login/otp/start/', {});
      expect(started.statusCode, started.body).toBe(200);
      const done = await c.post('/core/auth/login/otp/bind/', { code: codeAt(started.json().secret) });
      expect(done.json(), done.body).toMatchObject({ ok: true, next: '/ui/audits/' });
      expect(await lastLogin('olivia')).toMatchObject({ status: true, backend: 'openid', mfa: 1 });
      // The provider's sign-out data went through the MFA step with the sign-in.
      const out = await c.get('/core/auth/logout/');
      expect(new URL(out.headers.location as string).searchParams.get('id_token_hint')).toBeTruthy();

      await t.deps.settings.set('SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', false);
      const direct = await signIn(new SessionClient(t.app), 'openid', 'olivia');
      expect(direct.res.headers.location).toBe('/ui/audits/');
    } finally {
      await t.deps.settings.set('SECURITY_MFA_AUTH', 0);
      await t.deps.settings.set('SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', true);
    }
  });

  it('keeps the client secret sealed and out of GET', async () => {
    const got = (await admin.get('/api/v1/settings/setting/?category=oidc')).json();
    expect(got).toMatchObject({ AUTH_OPENID: true, AUTH_OPENID_CLIENT_ID: OIDC_CLIENT.id });
    expect(got).not.toHaveProperty('AUTH_OPENID_CLIENT_SECRET');
    const row = await t.deps.database.db
      .selectFrom('settings_setting')
      .select(['value', 'encrypted'])
      .where('name', '=', 'AUTH_OPENID_CLIENT_SECRET')
      .executeTakeFirstOrThrow();
    expect(Boolean(row.encrypted)).toBe(true);
    expect(row.value).not.toContain(OIDC_CLIENT.secret);
  });
});

describe('OAuth2 sign-in', () => {
  it('signs in through the same provider used as an OAuth2 server, creating the user with source oauth2', async () => {
    const c = new SessionClient(t.app);
    const { res } = await signIn(c, 'oauth2', 'otto', '/ui/profile/');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/ui/profile/');
    const me = (await c.get('/api/v1/users/profile/')).json();
    expect(me).toMatchObject({ username: 'otto', email: 'otto@idp.test' });
    expect(me.source).toMatchObject({ value: 'oauth2' });
    expect(await lastLogin('otto')).toMatchObject({ status: true, backend: 'oauth2' });
    const out = await c.get('/core/auth/logout/');
    expect(new URL(out.headers.location as string).pathname).toBe('/session/end');
  });

  it('refuses a wrong client secret with a login-log entry, nothing created', async () => {
    const patch = await admin.patch('/api/v1/settings/setting/?category=oauth2', {
      AUTH_OAUTH2_CLIENT_SECRET: 'wrong-secret',
    });
    expect(patch.statusCode).toBe(200);
    try {
      const { res } = await signIn(new SessionClient(t.app), 'oauth2', 'nobody');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
      expect(await lastLogin('')).toMatchObject({ status: false, reason: 'provider_failed', backend: 'oauth2' });
      const user = await t.deps.database.db
        .selectFrom('users_user')
        .select('id')
        .where('username', '=', 'nobody')
        .executeTakeFirst();
      expect(user).toBeUndefined();
    } finally {
      await admin.patch('/api/v1/settings/setting/?category=oauth2', {
        AUTH_OAUTH2_CLIENT_SECRET: OAUTH2_CLIENT.secret,
      });
    }
  });
});
