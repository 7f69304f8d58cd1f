import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { apiCall, newContext, openAsAdmin, screenshot } from './browser.ts';

/**
 * Settings › Authentication: the tabs in the console reference's order, the Passkey tab (a host
 * name only for the relying-party id; the switch shows or hides the login page's passkey button)
 * and the FeiShu version offered by name. A server of its own: the passkey switch changes every
 * user's login page.
 */
let server: RunningServer;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const SETTING = '/api/v1/settings/setting/?category=passkey';

beforeAll(async () => {
  server = await startServer();
  ({ browser, ctx, page } = await openAsAdmin(server.url, E2E_ADMIN_PASSWORD));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The login page of a signed-out browser, once it has read the public settings. */
async function loginPage(): Promise<{ login: Page; close(): Promise<void> }> {
  const anon = await newContext(browser, server.url);
  const login = await anon.newPage();
  const settingsRead = login.waitForResponse((r) => r.url().includes('/api/v1/settings/public/open/'));
  await login.goto('/core/auth/login/');
  await settingsRead;
  await login.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  return { login, close: () => anon.close() };
}

describe('Settings › Authentication', () => {
  it('lists its tabs in the reference order', async () => {
    await page.goto('/ui/settings/auth');
    await page.getByRole('tab', { name: 'Basic' }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual([
      'Basic',
      'LDAP',
      'CAS',
      'Passkey',
      'OIDC',
      'SAML2',
      'OAuth2',
      'WeCom',
      'DingTalk',
      'FeiShu',
      'Radius',
    ]);
  });

  it('saves the passkey settings, refusing a relying-party id that is not a host name', async () => {
    await page.getByRole('tab', { name: 'Passkey' }).click();
    const form = page.getByTestId('settings-form-passkey');
    await form.getByLabel('Relying party ID').fill('https://bastion.example.com');
    await form.getByRole('button', { name: 'Save' }).click();
    await form
      .getByText(
        '“https://bastion.example.com” is not a host name (such as gatehouse.example.com: no scheme, port, path or IP address).',
      )
      .waitFor();
    expect((await apiCall<Record<string, unknown>>(ctx, 'GET', SETTING)).FIDO_SERVER_ID).toBe('');

    await form.getByLabel('Relying party ID').fill('LocalHost');
    await form.getByLabel('Relying party name').fill('E2E bastion');
    await form.getByRole('switch').click();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    await expect.poll(() => form.getByLabel('Relying party ID').inputValue()).toBe('localhost');
    expect(await apiCall(ctx, 'GET', SETTING)).toEqual({
      AUTH_PASSKEY: true,
      FIDO_SERVER_ID: 'localhost',
      FIDO_SERVER_NAME: 'E2E bastion',
    });
    await screenshot(page, 'settings-auth-passkey');
  });

  it('shows the passkey button on the login page only while passkeys are on', async () => {
    const on = await loginPage();
    await on.login.getByTestId('passkey-login').waitFor();
    await on.close();

    await page.getByTestId('settings-form-passkey').getByRole('switch').click();
    await page.getByTestId('settings-form-passkey').getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await apiCall<{ AUTH_PASSKEY: boolean }>(ctx, 'GET', SETTING)).AUTH_PASSKEY)
      .toBe(false);
    const off = await loginPage();
    expect(await off.login.getByTestId('passkey-login').isHidden()).toBe(true);
    await off.close();
  });

  it('offers the FeiShu versions by name', async () => {
    await page.getByRole('tab', { name: 'FeiShu' }).click();
    const form = page.getByTestId('settings-form-feishu');
    await form.getByLabel('Version').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.allTextContents()).toEqual(['FeiShu', 'Lark']);
    await screenshot(page, 'settings-auth-feishu-version');
    await page.keyboard.press('Escape');
  });
});
