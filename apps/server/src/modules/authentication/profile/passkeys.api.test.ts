import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { confirmPassword, signedInUser } from '../../../../test-support/profile.ts';
import { SoftAuthenticator } from '../../../../test-support/softAuthenticator.ts';

/**
 * Passkey ceremonies, verified by @simplewebauthn/server against a software authenticator: the
 * request's host (`localhost` under inject) is the relying party, its origin the expected origin.
 */
let t: TestApp;
let carol: { id: string; client: SessionClient };
const PK = '/api/v1/authentication/passkeys/';
const ORIGIN = 'http://localhost:80';

beforeAll(async () => {
  t = await createTestApp();
  await t.deps.settings.set('AUTH_PASSKEY', true);
  carol = await signedInUser(t, 'carol');
});
afterAll(async () => t.close());

async function register(c: SessionClient, name: string, origin = ORIGIN): Promise<SoftAuthenticator> {
  await confirmPassword(c);
  const begin = await c.get(`${PK}register/?name=${encodeURIComponent(name)}`);
  expect(begin.statusCode).toBe(200);
  const options = begin.json();
  expect(options.rp).toEqual({ name: 'Gatehouse', id: 'localhost' });
  expect(options.authenticatorSelection.userVerification).toBe('required');
  const auth = new SoftAuthenticator(options.rp.id, origin);
  const done = await c.post(`${PK}register/`, auth.create(options.challenge), {
    'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
  });
  expect(done.statusCode, done.body).toBe(201);
  expect(done.json()).toMatchObject({ name, is_active: true, platform: 'Chrome on Linux', created_by: 'carol' });
  return auth;
}

/** Signs in from a fresh login page with the authenticator. */
async function signIn(auth: SoftAuthenticator, origin?: string) {
  const c = new SessionClient(t.app);
  await c.get('/core/auth/login/');
  const options = (await c.get(`${PK}auth/`)).json();
  const res = await c.post(`${PK}auth/`, { ...auth.get(options.challenge, origin), next: '/ui/' });
  return { c, res };
}

describe('passkeys', () => {
  it('register with a name after re-verification, then sign in without a password', async () => {
    const fresh = await signedInUser(t, 'carol2');
    const refused = await fresh.client.get(`${PK}register/?name=laptop`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('relogin');
    expect((await carol.client.get(`${PK}register/`)).json().name).toBeDefined();

    const auth = await register(carol.client, 'laptop');
    const { c, res } = await signIn(auth);
    expect(res.json()).toEqual({ ok: true, next: '/ui/' });
    const profile = await c.get('/api/v1/users/profile/');
    expect(profile.json().username).toBe('carol');
    const listed = (await carol.client.get(PK)).json();
    expect(listed).toHaveLength(1);
    expect(listed[0].date_last_used).not.toBeNull();
    const log = await t.deps.database.db
      .selectFrom('audits_userloginlog')
      .selectAll()
      .where('username', '=', 'carol')
      .orderBy('datetime', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ mfa: 1, backend: 'Passkey' });
  });

  it('refuses a replayed challenge, another origin, no user verification and a disabled or deleted passkey', async () => {
    const auth = await register(carol.client, 'phone');
    const c = new SessionClient(t.app);
    await c.get('/core/auth/login/');
    const options = (await c.get(`${PK}auth/`)).json();
    const answer = auth.get(options.challenge);
    expect((await c.post(`${PK}auth/`, answer)).json().ok).toBe(true);
    const replay = await c.post(`${PK}auth/`, answer);
    expect(replay.json()).toMatchObject({ ok: false, error: 'passkey_failed' });

    expect((await signIn(auth, 'https://evil.example')).res.json().ok).toBe(false);
    auth.userVerified = false;
    expect((await signIn(auth)).res.json().ok).toBe(false);
    auth.userVerified = true;

    const id = (await carol.client.get(PK)).json().find((p: { name: string }) => p.name === 'phone').id;
    const off = await carol.client.request({ method: 'PATCH', url: `${PK}${id}/`, payload: { is_active: false } });
    expect(off.json().is_active).toBe(false);
    const disabled = (await signIn(auth)).res.json();
    expect(disabled).toMatchObject({ ok: false, msg: 'This passkey is not registered here or is disabled.' });
    await carol.client.request({ method: 'PATCH', url: `${PK}${id}/`, payload: { is_active: true } });
    expect((await signIn(auth)).res.json().ok).toBe(true);
    expect((await carol.client.request({ method: 'DELETE', url: `${PK}${id}/` })).statusCode).toBe(204);
    expect((await signIn(auth)).res.json().ok).toBe(false);
  });

  it('refuses registration from another origin and without the login CSRF token', async () => {
    await confirmPassword(carol.client);
    const options = (await carol.client.get(`${PK}register/?name=evil`)).json();
    const wrong = new SoftAuthenticator('localhost', 'https://evil.example');
    const res = await carol.client.post(`${PK}register/`, wrong.create(options.challenge));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('passkey_failed');

    const bare = await t.app.inject({ method: 'POST', url: `${PK}auth/`, payload: {} });
    expect(bare.statusCode).toBe(403);
  });

  it('are off without AUTH_PASSKEY, and belong to their user only', async () => {
    const id = (await carol.client.get(PK)).json()[0].id;
    const dave = await signedInUser(t, 'dave');
    expect((await dave.client.get(PK)).json()).toEqual([]);
    expect((await dave.client.get(`${PK}${id}/`)).statusCode).toBe(404);
    await confirmPassword(dave.client);
    expect((await dave.client.request({ method: 'DELETE', url: `${PK}${id}/` })).statusCode).toBe(404);
    expect(
      (await dave.client.request({ method: 'PATCH', url: `${PK}${id}/`, payload: { is_active: false } })).statusCode,
    ).toBe(404);

    await t.deps.settings.set('AUTH_PASSKEY', false);
    try {
      expect((await t.app.inject({ method: 'GET', url: `${PK}auth/` })).statusCode).toBe(400);
      expect((await carol.client.get(`${PK}register/?name=x`)).json().code).toBe('passkey_disabled');
    } finally {
      await t.deps.settings.set('AUTH_PASSKEY', true);
    }
  });
});
