import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH, PUBLIC_KEY_COOKIE, SESSION_COOKIE } from '@gatehouse/contract';
import { ADMIN_PASSWORD, SessionClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { encryptGatehouse, encryptLegacy } from '../../../test-support/transportSecret.ts';
import { BROWSER_COOKIE } from './browserKeys.ts';
import { browserPublicKey } from '../../../test-support/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function loginPage(): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  await c.get(LOGIN_PATH);
  return c;
}

describe('encrypted secrets on the login page (api-contract §2.2)', () => {
  it('gives the page a public key cookie and an HttpOnly browser id; API answers carry no key', async () => {
    const res = await t.app.inject({ method: 'GET', url: LOGIN_PATH });
    const pub = res.cookies.find((c) => c.name === PUBLIC_KEY_COOKIE)!;
    expect(pub.httpOnly).toBeFalsy();
    expect(Buffer.from(decodeURIComponent(pub.value), 'base64').toString()).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(res.cookies.find((c) => c.name === BROWSER_COOKIE)?.httpOnly).toBe(true);
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/settings/public/open/' });
    expect(api.cookies.find((c) => c.name === PUBLIC_KEY_COOKIE)).toBeUndefined();
  });

  it('keeps the key while the browser holds it', async () => {
    const c = await loginPage();
    const first = c.jar.values.get(PUBLIC_KEY_COOKIE);
    const again = await c.get(LOGIN_PATH);
    expect(again.cookies.find((x) => x.name === PUBLIC_KEY_COOKIE)).toBeUndefined();
    expect(c.jar.values.get(PUBLIC_KEY_COOKIE)).toBe(first);
  });

  it('signs in with a password encrypted by the Gatehouse scheme, then rotates the key on the next page', async () => {
    const c = await loginPage();
    const before = c.jar.values.get(PUBLIC_KEY_COOKIE);
    const res = await c.post(LOGIN_PATH, {
      username: 'admin',
      password: encryptGatehouse(browserPublicKey(c), ADMIN_PASSWORD),
    });
    expect(res.json()).toMatchObject({ ok: true });
    await c.get('/ui/');
    expect(c.jar.values.get(PUBLIC_KEY_COOKIE)).not.toBe(before);
  });

  it('signs in with a password encrypted as JumpServer clients do (RSA PKCS#1 v1.5 + AES-ECB)', async () => {
    const c = await loginPage();
    const res = await c.post(LOGIN_PATH, {
      username: 'admin',
      password: encryptLegacy(browserPublicKey(c), ADMIN_PASSWORD),
    });
    expect(res.json()).toMatchObject({ ok: true });
    expect(c.jar.values.has(SESSION_COOKIE)).toBe(true);
  });

  it('still accepts a plain password', async () => {
    const c = await loginPage();
    expect((await c.post(LOGIN_PATH, { username: 'admin', password: ADMIN_PASSWORD })).json()).toMatchObject({
      ok: true,
    });
  });

  it('refuses a tampered Gatehouse value with a clear message, and takes a broken legacy value as plain text', async () => {
    const c = await loginPage();
    const [k, d] = encryptGatehouse(browserPublicKey(c), ADMIN_PASSWORD).split(':') as [string, string];
    const body = Buffer.from(d, 'base64');
    body[13] = body[13]! ^ 1;
    const tampered = await c.post(LOGIN_PATH, { username: 'admin', password: `${k}:${body.toString('base64')}` });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toMatchObject({ ok: false, error: 'decrypt_failed' });
    expect(tampered.json().msg).toContain('reload the page');

    const [lk, ld] = encryptLegacy(browserPublicKey(c), ADMIN_PASSWORD).split(':') as [string, string];
    const broken = await c.post(LOGIN_PATH, { username: 'admin', password: `${lk.slice(4)}:${ld}` });
    expect(broken.json()).toMatchObject({ ok: false, error: 'password_failed' });
    await t.deps.cache.delete('_LOGIN_LIMIT_admin_127.0.0.1');
  });

  it('cannot be decrypted by another browser (the key belongs to the browser id)', async () => {
    const a = await loginPage();
    const b = await loginPage();
    const value = encryptGatehouse(browserPublicKey(a), ADMIN_PASSWORD);
    // B presents A's public key with its own browser id.
    b.jar.values.set(PUBLIC_KEY_COOKIE, a.jar.values.get(PUBLIC_KEY_COOKIE)!);
    const res = await b.post(LOGIN_PATH, { username: 'admin', password: value });
    expect(res.json()).toMatchObject({ ok: false, error: 'decrypt_failed' });
  });

  it('decrypts the token API password too', async () => {
    const c = await loginPage();
    const res = await c.post('/api/v1/authentication/auth/', {
      username: 'admin',
      password: encryptGatehouse(browserPublicKey(c), ADMIN_PASSWORD),
    });
    expect(res.statusCode).toBe(201);
  });
});
