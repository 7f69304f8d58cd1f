import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { keyPair, startSamlIdp } from '../../../../test-support/samlIdp.ts';

/**
 * SAML single logout against the test IdP of test-support/samlIdp.ts (no SAML IdP package is
 * installed; it signs and checks the HTTP-Redirect binding's signatures itself): the SP's signed
 * LogoutRequest on sign-out and the IdP's answer, and the IdP's own LogoutRequest ending the
 * user's sessions; unsigned, wrongly signed, stale and replayed messages are refused.
 */
const SITE = 'http://gatehouse.test';
const SLO = `${SITE}/core/auth/saml2/logout/`;
let t: TestApp;
const idp = startSamlIdp();
const sp = keyPair();

async function signIn(nameId: string): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  const start = await c.get('/core/auth/saml2/login/?next=/ui/audits/');
  const answer = idp.answer(start.headers.location as string, nameId, { attributes: { mail: `${nameId}@idp.test` } });
  const res = await c.request({
    method: 'POST',
    url: '/core/auth/saml2/callback/',
    payload: new URLSearchParams({ ...answer }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.headers.location, res.body).toBe('/ui/audits/');
  return c;
}
const signedIn = async (c: SessionClient) => (await c.get('/api/v1/users/profile/')).statusCode === 200;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await adminClient(t.app);
  expect((await admin.patch('/api/v1/settings/setting/?category=oidc', { BASE_SITE_URL: SITE })).statusCode).toBe(200);
  const res = await admin.patch('/api/v1/settings/setting/?category=saml2', {
    AUTH_SAML2: true,
    SAML2_IDP_METADATA_XML: idp.metadata,
    SAML2_SP_KEY_CONTENT: sp.key,
    SAML2_SP_CERT_CONTENT: sp.cert,
    SAML2_RENAME_ATTRIBUTES: { mail: 'email' },
    SAML2_LOGOUT_COMPLETELY: true,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('SAML single logout, started here', () => {
  it('sends a signed LogoutRequest naming the session, and takes the IdP’s signed answer once', async () => {
    const c = await signIn('sally');
    const out = await c.get('/core/auth/logout/');
    const location = out.headers.location as string;
    expect(location.startsWith(`${idp.sloUrl}?`)).toBe(true);
    expect(await signedIn(c)).toBe(false);
    const request = idp.readLogoutRequest(location, sp.cert);
    expect(request.nameId).toBe('sally');
    expect(request.sessionIndex).toMatch(/^_a/);
    // The metadata the IdP reads names the service for both bindings.
    const meta = (await c.get('/core/auth/saml2/metadata/')).body;
    expect(meta).toContain(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${SLO}"`);

    const answer = idp.logoutResponse(request.id, SLO);
    const back = await c.get(`/core/auth/saml2/logout/?${answer}`);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(LOGIN_PATH);
    const again = await c.get(`/core/auth/saml2/logout/?${answer}`);
    expect(again.headers.location).toBe(`${LOGIN_PATH}?error=slo_failed`);
  });

  it('signs out here only when SAML2_LOGOUT_COMPLETELY is off', async () => {
    await t.deps.settings.set('SAML2_LOGOUT_COMPLETELY', false);
    try {
      const c = await signIn('sam');
      const out = await c.get('/core/auth/logout/');
      expect(out.headers.location).toBe(LOGIN_PATH);
      expect(await signedIn(c)).toBe(false);
    } finally {
      await t.deps.settings.set('SAML2_LOGOUT_COMPLETELY', true);
    }
  });
});

describe('SAML single logout, started by the IdP', () => {
  it('ends every session of the NameID on a signed request and answers with a LogoutResponse', async () => {
    const a = await signIn('ida');
    const b = await signIn('ida');
    const other = await signIn('otto');
    const { id, query } = idp.logoutRequest('ida', SLO, { relayState: 'rs-1' });
    const res = await new SessionClient(t.app).get(`/core/auth/saml2/logout/?${query}`);
    expect(res.statusCode, res.body).toBe(302);
    const answer = new URL(res.headers.location as string);
    expect(`${answer.origin}${answer.pathname}`).toBe(idp.sloUrl);
    expect(answer.searchParams.get('RelayState')).toBe('rs-1');
    const { inflateRawSync } = await import('node:zlib');
    const xml = inflateRawSync(Buffer.from(answer.searchParams.get('SAMLResponse')!, 'base64')).toString();
    expect(xml).toContain(`InResponseTo="${id}"`);
    expect(xml).toContain('status:Success');
    expect(await signedIn(a)).toBe(false);
    expect(await signedIn(b)).toBe(false);
    expect(await signedIn(other)).toBe(true);
    // The same request again (a replay) is refused.
    const replay = await new SessionClient(t.app).get(`/core/auth/saml2/logout/?${query}`);
    expect(replay.statusCode).toBe(400);
  });

  it('refuses unsigned, wrongly signed and stale requests, ending nothing', async () => {
    const c = await signIn('ivy');
    for (const sign of ['none', 'other'] as const) {
      const res = await new SessionClient(t.app).get(
        `/core/auth/saml2/logout/?${idp.logoutRequest('ivy', SLO, { sign }).query}`,
      );
      expect(res.statusCode).toBe(400);
    }
    const stale = new Date(Date.now() - 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const old = await new SessionClient(t.app).get(
      `/core/auth/saml2/logout/?${idp.logoutRequest('ivy', SLO, { issueInstant: stale }).query}`,
    );
    expect(old.statusCode).toBe(400);
    const otherSession = await new SessionClient(t.app).get(
      `/core/auth/saml2/logout/?${idp.logoutRequest('ivy', SLO, { sessionIndex: '_not-this-one' }).query}`,
    );
    expect(otherSession.statusCode).toBe(302);
    expect(await signedIn(c)).toBe(true);
  });

  it('does not take an unsolicited, unsigned or wrongly signed LogoutResponse for a confirmed sign-out', async () => {
    const failed = `${LOGIN_PATH}?error=slo_failed`;
    const res = await new SessionClient(t.app).get(
      `/core/auth/saml2/logout/?${idp.logoutResponse('_never-sent', SLO)}`,
    );
    expect(res.headers.location).toBe(failed);
    const c = await signIn('uma');
    const request = idp.readLogoutRequest((await c.get('/core/auth/logout/')).headers.location as string, sp.cert);
    const unsigned = await new SessionClient(t.app).get(
      `/core/auth/saml2/logout/?${idp.logoutResponse(request.id, SLO, '', 'none')}`,
    );
    expect(unsigned.headers.location).toBe(failed);
    const forged = await new SessionClient(t.app).get(
      `/core/auth/saml2/logout/?${idp.logoutResponse(request.id, SLO, '', 'other')}`,
    );
    expect(forged.headers.location).toBe(failed);
    const late = await new SessionClient(t.app).get(`/core/auth/saml2/logout/?${idp.logoutResponse(request.id, SLO)}`);
    expect(late.headers.location).toBe(LOGIN_PATH);
  });
});
