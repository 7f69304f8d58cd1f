import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- http-signature ships no types; used here only as an independent signer
import httpSignature from 'http-signature';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { confirmPassword, signedHeaders, signedInUser } from '../../../../test-support/profile.ts';
import { createPrivateToken } from './accessKeys.ts';

/**
 * API keys: the own-keys API with re-verification, and requests signed with a key (HTTP
 * signatures, hmac-sha256). Signatures come from the `http-signature` package (Joyent's
 * implementation of the draft, an independent signer) and from a small signer of our own.
 */
let t: TestApp;
let alice: { id: string; client: SessionClient };
const KEYS = '/api/v1/authentication/access-keys/';
const USERS = '/api/v1/users/users/';

beforeAll(async () => {
  t = await createTestApp();
  alice = await signedInUser(t, 'alice');
});
afterAll(async () => t.close());

async function newKey(c: SessionClient): Promise<{ id: string; secret: string }> {
  await confirmPassword(c);
  const res = await c.post(KEYS, {});
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** Signs like an API client with the http-signature package, then sends through the app. */
async function joyentSigned(
  key: { id: string; secret: string },
  url: string,
  opts: { headers?: string[]; date?: string } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.date) headers.date = opts.date;
  const fake = {
    method: 'GET',
    path: url,
    getHeader: (n: string) => headers[n.toLowerCase()],
    setHeader: (n: string, v: string) => {
      headers[n.toLowerCase()] = v;
    },
  };
  httpSignature.signRequest(fake, {
    keyId: key.id,
    key: key.secret,
    algorithm: 'hmac-sha256',
    headers: opts.headers ?? ['(request-target)', 'accept', 'date'],
  });
  return { headers, send: () => t.app.inject({ method: 'GET', url, headers }) };
}

describe('the own-keys API', () => {
  it('needs re-verification to create, shows the secret once, and lists without it', async () => {
    const admin = await adminClient(t.app);
    const refused = await admin.post(KEYS, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('relogin');
    const key = await newKey(alice.client);
    expect(key.secret).toMatch(/^[0-9a-f-]{36}$/);
    const listed = (await alice.client.get(KEYS)).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: key.id, is_active: true });
    expect(listed[0].secret).toBeUndefined();
    const stored = await t.deps.database.db
      .selectFrom('authentication_accesskey')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(key.secret);
    // The admin sees only the admin's keys, and cannot touch alice's by id.
    expect((await admin.get(KEYS)).json()).toEqual([]);
    expect((await admin.get(`${KEYS}${key.id}/`)).statusCode).toBe(404);
    await confirmPassword(admin, 'Adm1n-secret!');
    expect((await admin.request({ method: 'DELETE', url: `${KEYS}${key.id}/` })).statusCode).toBe(404);
    expect(
      (await admin.request({ method: 'PATCH', url: `${KEYS}${key.id}/`, payload: { is_active: false } })).statusCode,
    ).toBe(404);
  });

  it('refuses a non-boolean is_active with a 400 on the field', async () => {
    const key = await newKey(alice.client);
    const res = await alice.client.request({
      method: 'PATCH',
      url: `${KEYS}${key.id}/`,
      payload: { is_active: 'maybe' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().is_active[0]).toMatch(/boolean/);
  });
});

describe('requests signed with an API key', () => {
  it('accepts a valid signature from an independent signer, with the key owner as the caller', async () => {
    const key = await newKey(alice.client);
    const res = await (await joyentSigned(key, '/api/v1/users/profile/')).send();
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('alice');
    const used = await alice.client.get(`${KEYS}${key.id}/`);
    expect(used.json().date_last_used).not.toBeNull();
  });

  it('refuses a wrong secret, a header list that does not match, an old Date and a replay', async () => {
    const key = await newKey(alice.client);
    const wrong = await (await joyentSigned({ id: key.id, secret: 'not-the-secret' }, '/api/v1/users/profile/')).send();
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().detail).toBe('Invalid access key or signature.');

    // Signed over "(request-target) date" but claims "(request-target) accept date".
    const signed = await joyentSigned(key, '/api/v1/users/profile/', { headers: ['(request-target)', 'date'] });
    const claimed = signed.headers.authorization!.replace(
      'headers="(request-target) date"',
      'headers="(request-target) accept date"',
    );
    const mismatch = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { ...signed.headers, authorization: claimed },
    });
    expect(mismatch.statusCode).toBe(401);
    // A signed accept header changed in transit.
    const changed = await joyentSigned(key, '/api/v1/users/profile/');
    const tampered = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { ...changed.headers, accept: 'text/html' },
    });
    expect(tampered.statusCode).toBe(401);
    // Another path than the one signed.
    const moved = await t.app.inject({ method: 'GET', url: USERS, headers: changed.headers });
    expect(moved.statusCode).toBe(401);
    // Without date or request-target in the list.
    const noTarget = await (await joyentSigned(key, '/api/v1/users/profile/', { headers: ['accept', 'date'] })).send();
    expect(noTarget.json().detail).toMatch(/\(request-target\) and date/);

    const old = new Date(Date.now() - 10 * 60_000).toUTCString();
    const expired = await (await joyentSigned(key, '/api/v1/users/profile/', { date: old })).send();
    expect(expired.statusCode).toBe(401);
    expect(expired.json().detail).toMatch(/300 seconds/);

    const once = await joyentSigned(key, '/api/v1/users/profile/');
    expect((await once.send()).statusCode).toBe(200);
    const replay = await once.send();
    expect(replay.statusCode).toBe(401);
    expect(replay.json().detail).toMatch(/already received/);
  });

  it('refuses a disabled key and a deleted key, and answers in the caller language', async () => {
    const key = await newKey(alice.client);
    const off = await alice.client.request({
      method: 'PATCH',
      url: `${KEYS}${key.id}/`,
      payload: { is_active: false },
    });
    expect(off.json().is_active).toBe(false);
    const date = new Date().toUTCString();
    const headers = signedHeaders(key.id, key.secret, 'GET', '/api/v1/users/profile/', { accept: '*/*', date });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { ...headers, 'accept-language': 'zh' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe('无效的访问密钥或签名。');
    await alice.client.request({ method: 'PATCH', url: `${KEYS}${key.id}/`, payload: { is_active: true } });
    expect((await alice.client.request({ method: 'DELETE', url: `${KEYS}${key.id}/` })).statusCode).toBe(204);
    const again = signedHeaders(key.id, key.secret, 'GET', '/api/v1/users/profile/', {
      accept: 'application/json',
      date,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/users/profile/', headers: again })).statusCode).toBe(401);
  });

  it('lists users with the permissions of the key owner', async () => {
    const admin = await adminClient(t.app);
    await confirmPassword(admin, 'Adm1n-secret!');
    const key = (await admin.post(KEYS, {})).json();
    const date = new Date().toUTCString();
    const headers = signedHeaders(key.id, key.secret, 'GET', `${USERS}?limit=5`, { accept: 'application/json', date });
    const list = await t.app.inject({ method: 'GET', url: `${USERS}?limit=5`, headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((u: { username: string }) => u.username)).toContain('admin');
    // alice (role User) may not list users with her key either.
    const aliceKey = await newKey(alice.client);
    const aliceHeaders = signedHeaders(aliceKey.id, aliceKey.secret, 'GET', USERS, {
      accept: 'application/json',
      date,
    });
    expect((await t.app.inject({ method: 'GET', url: USERS, headers: aliceHeaders })).statusCode).toBe(403);
  });

  it('refuses malformed signatures with a 400-free 401, never a 500', async () => {
    for (const authorization of [
      'Signature',
      'Signature keyId=',
      'Signature keyId="x",signature="y"',
      'Signature a="1",a="2"',
      'Signature keyId="x",algorithm="rsa-sha256",headers="(request-target) date",signature="AA=="',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/users/profile/',
        headers: { authorization, date: new Date().toUTCString() },
      });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('legacy private tokens', () => {
  it('authenticates Authorization: Token <key>, and refuses an unknown one', async () => {
    const key = await createPrivateToken(t.deps.database.db, alice.id);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { authorization: `Token ${key}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().username).toBe('alice');
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/profile/',
      headers: { authorization: 'Token nope' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().detail).toBe('Invalid private token.');
  });
});
