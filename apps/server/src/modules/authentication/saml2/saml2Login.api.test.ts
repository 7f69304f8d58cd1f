import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { startSamlIdp, type SamlAnswer } from '../../../../test-support/samlIdp.ts';

/**
 * SAML2 sign-in against a test IdP written in test-support/samlIdp.ts (no SAML IdP package is
 * installed: it signs its responses with xml-crypto): the redirect with an AuthnRequest, the ACS,
 * the user, and the responses that must be refused (replayed, another key, expired, another
 * audience), the metadata by XML or by URL (the URL wins), the SP metadata.
 */
const SETTINGS = '/api/v1/settings/setting/?category=saml2';
let t: TestApp;
let admin: SessionClient;
const idp = startSamlIdp();
let metadataServer: http.Server;
let metadataUrl: string;

async function lastLogin() {
  const row = await t.deps.database.db
    .selectFrom('audits_userloginlog')
    .select(['username', 'reason', 'backend', 'status'])
    .orderBy('datetime', 'desc')
    .executeTakeFirstOrThrow();
  return { ...row, status: Boolean(row.status) };
}

async function start(c: SessionClient, next = '/ui/audits/') {
  const res = await c.get(`/core/auth/saml2/login/?next=${encodeURIComponent(next)}`);
  expect(res.statusCode, res.body).toBe(302);
  return res.headers.location as string;
}

const post = (c: SessionClient, answer: SamlAnswer) =>
  c.request({
    method: 'POST',
    url: '/core/auth/saml2/callback/',
    payload: new URLSearchParams({ ...answer }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

beforeAll(async () => {
  metadataServer = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/xml');
    res.end(idp.metadata);
  });
  await new Promise<void>((r) => metadataServer.listen(0, '127.0.0.1', r));
  metadataUrl = `http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/metadata`;
  t = await createTestApp();
  admin = await adminClient(t.app);
  const res = await admin.patch(SETTINGS, {
    AUTH_SAML2: true,
    SAML2_IDP_METADATA_XML: idp.metadata,
    SAML2_RENAME_ATTRIBUTES: { mail: 'email', displayName: 'name' },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => metadataServer.close(() => r()));
});

describe('SAML2 sign-in', () => {
  it('signs in through the IdP, creating the user with source saml2 and renamed attributes', async () => {
    const c = new SessionClient(t.app);
    const location = await start(c);
    expect(location.startsWith(idp.ssoUrl)).toBe(true);
    const res = await post(
      c,
      idp.answer(location, 'sally', { attributes: { mail: 'sally@corp.test', displayName: 'Sally S' } }),
    );
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/ui/audits/');
    const me = (await c.get('/api/v1/users/profile/')).json();
    expect(me).toMatchObject({ username: 'sally', name: 'Sally S', email: 'sally@corp.test' });
    expect(me.source).toMatchObject({ value: 'saml2' });
    expect(await lastLogin()).toMatchObject({ username: 'sally', status: true, backend: 'saml2' });
  });

  it('refuses a replayed response, also under a fresh RelayState', async () => {
    const c = new SessionClient(t.app);
    const answer = idp.answer(await start(c), 'sally');
    expect((await post(c, answer)).headers.location).toBe('/ui/audits/');
    const again = await post(new SessionClient(t.app), answer);
    expect(again.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'state_invalid', backend: 'saml2' });
    const attacker = new SessionClient(t.app);
    const fresh = new URL(await start(attacker)).searchParams.get('RelayState')!;
    const replayed = await post(attacker, { ...answer, RelayState: fresh });
    expect(replayed.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect((await attacker.get('/api/v1/users/profile/')).statusCode).toBe(401);
  });

  it.each([
    ['signed by a key the metadata does not name', { otherKey: true }],
    ['expired', { validFor: -120 }],
    ['for another audience', { audience: 'https://other-sp.test/' }],
  ])('refuses a response %s, with a login-log entry and nobody created', async (_what, opts) => {
    const c = new SessionClient(t.app);
    const res = await post(c, idp.answer(await start(c), 'mallory', opts));
    expect(res.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'provider_failed', backend: 'saml2' });
    const user = await t.deps.database.db
      .selectFrom('users_user')
      .select('id')
      .where('username', '=', 'mallory')
      .executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('reads the metadata by URL before the XML; metadata that does not parse is refused clearly', async () => {
    expect((await admin.patch(SETTINGS, { SAML2_IDP_METADATA_XML: '<not-metadata/>' })).statusCode).toBe(200);
    const broken = await new SessionClient(t.app).get('/core/auth/saml2/login/');
    expect(broken.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'metadata_invalid', backend: 'saml2' });

    expect((await admin.patch(SETTINGS, { SAML2_IDP_METADATA_URL: metadataUrl })).statusCode).toBe(200);
    const c = new SessionClient(t.app);
    const res = await post(c, idp.answer(await start(c), 'sally'));
    expect(res.headers.location).toBe('/ui/audits/');
  });

  it('refuses, never a 500, when the SP key set does not sign', async () => {
    expect((await admin.patch(SETTINGS, { SAML2_SP_KEY_CONTENT: 'not a PEM key' })).statusCode).toBe(200);
    try {
      const res = await new SessionClient(t.app).get('/core/auth/saml2/login/');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
      expect(await lastLogin()).toMatchObject({ status: false, reason: 'provider_failed', backend: 'saml2' });
    } finally {
      await t.deps.database.db.deleteFrom('settings_setting').where('name', '=', 'SAML2_SP_KEY_CONTENT').execute();
    }
  });

  it('serves the SP metadata with the ACS address', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/core/auth/saml2/metadata/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(res.body).toContain('AssertionConsumerService');
    expect(res.body).toContain('/core/auth/saml2/callback/');
  });
});
