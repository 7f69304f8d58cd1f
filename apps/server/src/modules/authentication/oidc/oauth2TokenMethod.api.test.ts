import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';

/**
 * How the OAuth2 code is exchanged (AUTH_OAUTH2_ACCESS_TOKEN_METHOD), against a stand-in token and
 * userinfo endpoint written here that records each token request (oidc-provider, the real server of
 * oidcLogin.api.test.ts, takes POST only): by default a POST with the client secret in the form
 * body, never in the URL; GET, kept for providers that need it, puts it in the URL.
 */
const SECRET = 'Oauth2-token-method-secret';
let t: TestApp;
let provider: http.Server;
let base: string;
const seen: { method: string; url: string; body: string }[] = [];

beforeAll(async () => {
  provider = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://p');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/token') {
        seen.push({ method: req.method!, url: req.url!, body });
        const params = req.method === 'POST' ? new URLSearchParams(body) : url.searchParams;
        if (params.get('client_secret') !== SECRET) return res.end(JSON.stringify({ error: 'invalid_client' }));
        return res.end(JSON.stringify({ access_token: 'at-1', token_type: 'Bearer' }));
      }
      if (url.pathname === '/me' && req.headers.authorization === 'Bearer at-1')
        return res.end(JSON.stringify({ username: 'tina', email: 'tina@p.test', name: 'Tina' }));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  t = await createTestApp();
  const admin = await adminClient(t.app);
  const res = await admin.patch('/api/v1/settings/setting/?category=oauth2', {
    AUTH_OAUTH2: true,
    AUTH_OAUTH2_CLIENT_ID: 'cid',
    AUTH_OAUTH2_CLIENT_SECRET: SECRET,
    AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT: `${base}/auth`,
    AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT: `${base}/token`,
    AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT: `${base}/me`,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => provider.close(() => r()));
});

async function signIn(): Promise<string> {
  const c = new SessionClient(t.app);
  const start = await c.get('/core/auth/oauth2/login/?next=/ui/audits/');
  const state = new URL(start.headers.location as string).searchParams.get('state')!;
  const back = await c.get(`/core/auth/oauth2/callback/?code=c1&state=${state}`);
  return back.headers.location as string;
}

describe('OAuth2 token request', () => {
  it('is a POST with the client secret in the body by default, the URL free of it', async () => {
    expect((await t.deps.settings.get('AUTH_OAUTH2_ACCESS_TOKEN_METHOD' as never)) as unknown).toBe('POST');
    expect(await signIn()).toBe('/ui/audits/');
    const last = seen.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.url).not.toContain(SECRET);
    expect(new URLSearchParams(last.body).get('client_secret')).toBe(SECRET);
  });

  it('still speaks GET when the setting asks for it (the secret then travels in the URL)', async () => {
    await t.deps.settings.set('AUTH_OAUTH2_ACCESS_TOKEN_METHOD', 'GET');
    try {
      expect(await signIn()).toBe('/ui/audits/');
      const last = seen.at(-1)!;
      expect(last.method).toBe('GET');
      expect(new URL(last.url, base).searchParams.get('client_secret')).toBe(SECRET);
    } finally {
      await t.deps.settings.set('AUTH_OAUTH2_ACCESS_TOKEN_METHOD', 'POST');
    }
  });
});
