import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';

/**
 * CAS sign-in against a stand-in CAS server written in this test (no CAS server is installed; the
 * protocol is three endpoints: `login` issues a one-time service ticket for a service URL,
 * `serviceValidate` (v2) and `p3/serviceValidate` (v3, with attributes) validate it once, for
 * that service only, as the CAS protocol specification says).
 */
const SETTINGS = '/api/v1/settings/setting/?category=cas';
let t: TestApp;
let admin: SessionClient;
let cas: http.Server;
let casUrl: string;
/** ticket → {service, user}. */
const tickets = new Map<string, { service: string; user: string }>();
let nextUser = 'carla';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
function validation(url: URL, v3: boolean): string {
  const ticket = tickets.get(url.searchParams.get('ticket') ?? '');
  tickets.delete(url.searchParams.get('ticket') ?? '');
  if (!ticket || ticket.service !== url.searchParams.get('service'))
    return `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationFailure code="INVALID_TICKET">not valid</cas:authenticationFailure></cas:serviceResponse>`;
  const attributes = v3
    ? `<cas:attributes><cas:mail>${esc(ticket.user)}@cas.test</cas:mail><cas:displayName>CAS ${esc(ticket.user)}</cas:displayName></cas:attributes>`
    : '';
  return `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>${esc(ticket.user)}</cas:user>${attributes}</cas:authenticationSuccess></cas:serviceResponse>`;
}

async function lastLogin() {
  const row = await t.deps.database.db
    .selectFrom('audits_userloginlog')
    .select(['username', 'reason', 'backend', 'status'])
    .orderBy('datetime', 'desc')
    .executeTakeFirstOrThrow();
  return { ...row, status: Boolean(row.status) };
}

/** Our login route → the CAS login page (signs in as `user`) → back with a ticket: our answer. */
async function signIn(c: SessionClient, user: string, next = '/ui/audits/') {
  nextUser = user;
  const start = await c.get(`/core/auth/cas/login/?next=${encodeURIComponent(next)}`);
  expect(start.statusCode, start.body).toBe(302);
  const page = await fetch(start.headers.location as string, { redirect: 'manual' });
  const back = new URL(page.headers.get('location')!);
  return { back, res: await c.get(`${back.pathname}${back.search}`) };
}

beforeAll(async () => {
  cas = http.createServer((req, res) => {
    const url = new URL(req.url!, casUrl);
    if (url.pathname === '/cas/login') {
      const service = url.searchParams.get('service')!;
      const ticket = `ST-${randomBytes(12).toString('hex')}`;
      tickets.set(ticket, { service, user: nextUser });
      const back = new URL(service);
      back.searchParams.set('ticket', ticket);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/cas/serviceValidate' || url.pathname === '/cas/p3/serviceValidate') {
      res.setHeader('content-type', 'application/xml');
      return res.end(validation(url, url.pathname.includes('/p3/')));
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => cas.listen(0, '127.0.0.1', r));
  casUrl = `http://127.0.0.1:${(cas.address() as AddressInfo).port}/cas/`;
  t = await createTestApp();
  admin = await adminClient(t.app);
  const res = await admin.patch(SETTINGS, {
    AUTH_CAS: true,
    CAS_SERVER_URL: casUrl,
    CAS_VERSION: 3,
    CAS_RENAME_ATTRIBUTES: { mail: 'email', displayName: 'name' },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => cas.close(() => r()));
});

describe('CAS sign-in', () => {
  it('signs in by protocol 3, creating the user with source cas and its attributes', async () => {
    const c = new SessionClient(t.app);
    const { res } = await signIn(c, 'carla');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/ui/audits/');
    const me = (await c.get('/api/v1/users/profile/')).json();
    expect(me).toMatchObject({ username: 'carla', name: 'CAS carla', email: 'carla@cas.test' });
    expect(me.source).toMatchObject({ value: 'cas' });
    expect(await lastLogin()).toMatchObject({ username: 'carla', status: true, backend: 'cas' });
    const out = await c.get('/core/auth/logout/');
    expect(new URL(out.headers.location as string).pathname).toBe('/cas/logout');
  });

  it('signs in by protocol 2 (no attributes: the email from EMAIL_SUFFIX)', async () => {
    await t.deps.settings.set('CAS_VERSION', 2);
    try {
      const c = new SessionClient(t.app);
      expect((await signIn(c, 'conrad')).res.headers.location).toBe('/ui/audits/');
      expect((await c.get('/api/v1/users/profile/')).json()).toMatchObject({ email: 'conrad@example.com' });
    } finally {
      await t.deps.settings.set('CAS_VERSION', 3);
    }
  });

  it('refuses a ticket used twice and one from another browser, with a login-log entry', async () => {
    const c = new SessionClient(t.app);
    const { back } = await signIn(c, 'carla');
    const again = await new SessionClient(t.app).get(`${back.pathname}${back.search}`);
    expect(again.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'state_invalid', backend: 'cas' });
  });

  it('refuses a forged ticket', async () => {
    const c = new SessionClient(t.app);
    const start = await c.get('/core/auth/cas/login/');
    const service = new URL(new URL(start.headers.location as string).searchParams.get('service')!);
    const res = await c.get(`${service.pathname}${service.search}&ticket=ST-forged`);
    expect(res.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'provider_failed', backend: 'cas' });
  });

  it('creates no user without CAS_CREATE_USER', async () => {
    await t.deps.settings.set('CAS_CREATE_USER', false);
    try {
      const { res } = await signIn(new SessionClient(t.app), 'newcas');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?error=user_not_exist`);
    } finally {
      await t.deps.settings.set('CAS_CREATE_USER', true);
    }
  });
});
