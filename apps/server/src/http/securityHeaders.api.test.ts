import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH, SESSION_COOKIE } from '@gatehouse/contract';
import { ADMIN_PASSWORD, adminClient, createTestApp, SessionClient, type TestApp } from '../../test-support/testApp.ts';
import { listenOnLoopback } from '../../test-support/siteMsgSocket.ts';
import { SITE_MSG_SOCKET_PATH } from '../modules/notifications/siteMessageSocket.ts';

/**
 * Hardening (issue 11 item 11): security headers on every response, Secure cookies behind TLS
 * (directly or through a proxy named in TRUSTED_PROXIES), websockets only from this site's pages
 * and at most LIMIT_WEBSOCKETS_PER_USER per user.
 */
let t: TestApp;
let admin: SessionClient;

beforeAll(async () => {
  t = await createTestApp({ LIMIT_WEBSOCKETS_PER_USER: '2' });
  admin = await adminClient(t.app);
});
afterAll(() => t.close());

describe('security headers', () => {
  it.each(['/ui/', LOGIN_PATH, '/api/health/', '/api/v1/users/profile/', '/api/v1/nowhere/', '/nowhere'])(
    '%s carries the CSP, no-framing, nosniff and referrer headers',
    async (url) => {
      const res = await admin.get(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it('API answers are not stored by caches', async () => {
    const res = await admin.get('/api/v1/users/profile/');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('behind TLS', () => {
  it('an untrusted X-Forwarded-Proto changes nothing: no HSTS, no Secure cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: LOGIN_PATH, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.cookies.every((c) => !c.secure)).toBe(true);
  });

  it('through a proxy named in TRUSTED_PROXIES: HSTS and Secure cookies, the session one included', async () => {
    const p = await createTestApp({ TRUSTED_PROXIES: '127.0.0.1' });
    try {
      const c = new SessionClient(p.app);
      const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
      const page = await c.get(LOGIN_PATH, https);
      expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const login = await c.post(LOGIN_PATH, { username: 'admin', password: ADMIN_PASSWORD }, https);
      expect(login.statusCode, login.body).toBe(200);
      const session = login.cookies.find((k) => k.name === SESSION_COOKIE);
      expect(session?.secure).toBe(true);
      expect(login.cookies.every((k) => k.secure)).toBe(true);
    } finally {
      await p.close();
    }
  });
});

describe('websockets', () => {
  let base: string;
  let cookie: string;
  beforeAll(async () => {
    base = await listenOnLoopback(t.app);
    cookie = `${SESSION_COOKIE}=${admin.jar.values.get(SESSION_COOKIE)}`;
  });

  /** Opens the site-message socket: resolves with the socket, or the HTTP status that refused it. */
  const open = (headers: Record<string, string>) =>
    new Promise<WebSocket | number>((resolve, reject) => {
      const ws = new WebSocket(`${base}${SITE_MSG_SOCKET_PATH}`, { headers });
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', reject);
    });
  const host = () => new URL(base).host;

  it('are refused from another site’s page, accepted from this site’s', async () => {
    expect(await open({ cookie, origin: 'https://evil.example' })).toBe(403);
    expect(await open({ cookie, origin: `http://${host()}.evil.example` })).toBe(403);
    const ok = await open({ cookie, origin: `http://${host()}` });
    expect(ok).toBeInstanceOf(WebSocket);
    (ok as WebSocket).close();
  });

  it('are limited per user: the one past LIMIT_WEBSOCKETS_PER_USER is refused with 429 until one closes', async () => {
    const a = (await open({ cookie })) as WebSocket;
    const b = (await open({ cookie })) as WebSocket;
    expect(b).toBeInstanceOf(WebSocket);
    expect(await open({ cookie })).toBe(429);
    const closed = new Promise((r) => a.once('close', r));
    a.close();
    await closed;
    await new Promise((r) => setTimeout(r, 100));
    const c = await open({ cookie });
    expect(c).toBeInstanceOf(WebSocket);
    b.close();
    (c as WebSocket).close();
  });
});
