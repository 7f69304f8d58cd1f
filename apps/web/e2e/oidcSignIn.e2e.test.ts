import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  OAUTH2_CLIENT,
  OIDC_CLIENT,
  startOidcProvider,
  type TestIdp,
} from '@gatehouse/server/test-support/oidcProvider.ts';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { apiCall, newContext, openAsAdmin, screenshot } from './browser.ts';

/**
 * Sign-in through a real OpenID provider (oidc-provider on loopback, its own development sign-in
 * page) from the login page's button, back into the console; the Auth settings' OIDC tab. A server
 * of its own: turning providers on changes every user's login page.
 */
let server: RunningServer;
let idp: TestIdp;
let browser: Browser;
let admin: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  idp = await startOidcProvider(server.url);
  ({ browser, ctx: admin, page } = await openAsAdmin(server.url, E2E_ADMIN_PASSWORD));
  await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=oidc', {
    AUTH_OPENID: true,
    BASE_SITE_URL: server.url,
    AUTH_OPENID_PROVIDER_ENDPOINT: idp.issuer,
    AUTH_OPENID_CLIENT_ID: OIDC_CLIENT.id,
    AUTH_OPENID_CLIENT_SECRET: OIDC_CLIENT.secret,
  });
  await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=oauth2', {
    AUTH_OAUTH2: true,
    AUTH_OAUTH2_PROVIDER: 'Test IdP',
    AUTH_OAUTH2_LOGO_PATH: '/ui/favicon.svg',
    AUTH_OAUTH2_CLIENT_ID: OAUTH2_CLIENT.id,
    AUTH_OAUTH2_CLIENT_SECRET: OAUTH2_CLIENT.secret,
    AUTH_OAUTH2_SCOPE: 'openid profile email',
    AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT: `${idp.issuer}/auth`,
    AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT: `${idp.issuer}/token`,
    AUTH_OAUTH2_ACCESS_TOKEN_METHOD: 'POST',
    AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT: `${idp.issuer}/me`,
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await server?.stop();
});

describe('sign-in through an identity provider', () => {
  it("shows the OIDC settings tab, the client secret never shown again, and the other providers' tabs", async () => {
    await page.goto('/ui/settings/auth');
    await page.getByRole('tab', { name: 'OIDC' }).click();
    const form = page.getByTestId('settings-form-oidc');
    await form.getByLabel('Client ID').waitFor();
    await expect.poll(() => form.getByLabel('Client ID').inputValue()).toBe(OIDC_CLIENT.id);
    expect(await form.getByLabel('Client secret').inputValue()).toBe('');
    await screenshot(page, 'settings-oidc');
    for (const [tab, field, shot] of [
      ['SAML2', 'IdP metadata URL', 'settings-saml2'],
      ['CAS', 'CAS server URL', 'settings-cas'],
      ['Radius', 'Host', 'settings-radius'],
    ] as const) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      await page.getByTestId(`settings-form-${tab.toLowerCase()}`).getByLabel(field).waitFor();
      await screenshot(page, shot);
    }
  });

  it('signs in from the login page button through the provider page back to the console', async () => {
    const ctx = await newContext(browser, server.url);
    const p = await ctx.newPage();
    await p.goto('/core/auth/login/?next=/ui/profile/info');
    await p.getByTestId('sso-openid').waitFor();
    await p.getByTestId('sso-oauth2').waitFor();
    expect(await p.getByTestId('sso-oauth2').textContent()).toContain('Sign in with Test IdP');
    await screenshot(p, 'login-sso-buttons');
    await p.getByTestId('sso-openid').click();
    // The provider's own page.
    await p.locator('input[name="login"]').waitFor();
    expect(new URL(p.url()).origin).toBe(idp.issuer);
    await p.locator('input[name="login"]').fill('e2e-oidc-olga');
    await p.locator('input[name="password"]').fill('any');
    await p.locator('button[type="submit"]').click();
    await p.waitForURL(`${server.url}/ui/profile/info`);
    const me = await apiCall<{ username: string; source: { value: string } }>(ctx, 'GET', '/api/v1/users/profile/');
    expect(me).toMatchObject({ username: 'e2e-oidc-olga', source: { value: 'openid' } });
    // A new user's first sign-in opens the account page (no password step: the provider keeps it).
    await p.getByTestId('improvement-page').waitFor();
    await screenshot(p, 'console-after-oidc');
    await ctx.close();
  });

  it('explains a refused sign-in on the login page', async () => {
    const ctx = await newContext(browser, server.url);
    const p = await ctx.newPage();
    // A callback this browser did not start (a replayed or forged one).
    await p.goto('/core/auth/openid/callback/?code=x&state=not-mine');
    await p.waitForURL('**/core/auth/login/?error=sso_failed');
    await expect
      .poll(() => p.getByTestId('login-error').textContent())
      .toContain('sign-in through the identity provider did not complete');
    await screenshot(p, 'login-sso-refused');
    await ctx.close();
  });
});
