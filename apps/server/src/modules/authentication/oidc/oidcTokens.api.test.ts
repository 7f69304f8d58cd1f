import http from 'node:http';
import { generateKeyPairSync, sign } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';

/**
 * Bad ID tokens are refused. The provider here is a stand-in written in this test (its
 * authorization, token and JWKS endpoints, configured as explicit endpoints) because a real
 * provider never issues a token for the wrong audience, an expired one or one signed by another
 * key: each test decides what the token endpoint answers.
 */
const SITE = 'http://gatehouse.test';
const CLIENT_ID = 'gatehouse';
let t: TestApp;
let admin: SessionClient;
let server: http.Server;
let issuer: string;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
let lastNonce = '';
/** What the token endpoint does: sign these claims over the defaults, or never answer. */
let tokenPlan: { claims?: Record<string, unknown>; key?: typeof privateKey; hang?: boolean } = {};

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function jwt(claims: Record<string, unknown>, key = privateKey): string {
  const head = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64(claims)}`;
  return `${head}.${sign('sha256', Buffer.from(head), key).toString('base64url')}`;
}

async function lastLoginReason() {
  const row = await t.deps.database.db
    .selectFrom('audits_userloginlog')
    .select(['reason', 'backend', 'status'])
    .orderBy('datetime', 'desc')
    .executeTakeFirstOrThrow();
  return { ...row, status: Boolean(row.status) };
}

async function signIn(): Promise<string> {
  const c = new SessionClient(t.app);
  const start = await c.get('/core/auth/openid/login/');
  expect(start.statusCode, start.body).toBe(302);
  const auth = new URL(start.headers.location as string);
  lastNonce = auth.searchParams.get('nonce') ?? '';
  const back = new URL('/core/auth/openid/callback/', SITE);
  back.searchParams.set('code', 'code-1');
  back.searchParams.set('state', auth.searchParams.get('state')!);
  const res = await c.get(`${back.pathname}${back.search}`);
  return res.headers.location as string;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, issuer);
    if (url.pathname === '/jwks') {
      res.setHeader('content-type', 'application/json');
      return res.end(
        JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] }),
      );
    }
    if (url.pathname === '/token') {
      if (tokenPlan.hang) return; // never answers
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: issuer,
        aud: CLIENT_ID,
        sub: 'ivy',
        preferred_username: 'ivy',
        email: 'ivy@idp.test',
        iat: now,
        exp: now + 300,
        nonce: lastNonce,
        ...tokenPlan.claims,
      };
      res.setHeader('content-type', 'application/json');
      return res.end(
        JSON.stringify({ access_token: 'at-1', token_type: 'Bearer', id_token: jwt(claims, tokenPlan.key) }),
      );
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp();
  admin = await adminClient(t.app);
  const res = await admin.patch('/api/v1/settings/setting/?category=oidc', {
    AUTH_OPENID: true,
    BASE_SITE_URL: SITE,
    AUTH_OPENID_CLIENT_ID: CLIENT_ID,
    AUTH_OPENID_CLIENT_SECRET: 'secret',
    AUTH_OPENID_PROVIDER_ENDPOINT: issuer,
    AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT: `${issuer}/auth`,
    AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT: `${issuer}/token`,
    AUTH_OPENID_PROVIDER_JWKS_ENDPOINT: `${issuer}/jwks`,
    AUTH_OPENID_ID_TOKEN_MAX_AGE: 60,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('OpenID Connect: bad ID tokens (stand-in provider)', () => {
  it('accepts a good token from the explicit endpoints', async () => {
    tokenPlan = {};
    expect(await signIn()).toBe('/ui/');
    expect(await lastLoginReason()).toMatchObject({ status: true, backend: 'openid' });
  });

  it.each([
    ['a wrong audience', { claims: { aud: 'someone-else' } }, 'provider_failed'],
    [
      'an expired token',
      { claims: { iat: Math.floor(Date.now() / 1000) - 900, exp: Math.floor(Date.now() / 1000) - 600 } },
      'provider_failed',
    ],
    ['another issuer', { claims: { iss: 'https://evil.example' } }, 'provider_failed'],
    ['a wrong nonce', { claims: { nonce: 'replayed-nonce' } }, 'provider_failed'],
    ['a signature by another key', { key: other.privateKey }, 'provider_failed'],
    [
      'a token older than AUTH_OPENID_ID_TOKEN_MAX_AGE',
      { claims: { iat: Math.floor(Date.now() / 1000) - 120 } },
      'token_expired',
    ],
  ])('refuses %s with a login-log entry', async (_what, plan, reason) => {
    tokenPlan = plan;
    expect(await signIn()).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLoginReason()).toMatchObject({ status: false, reason, backend: 'openid' });
  });

  it('ends a token endpoint that does not answer with a refusal, not a hang', async () => {
    tokenPlan = { hang: true };
    const started = Date.now();
    expect(await signIn()).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await lastLoginReason()).toMatchObject({ status: false, reason: 'provider_failed' });
  }, 20_000);
});
