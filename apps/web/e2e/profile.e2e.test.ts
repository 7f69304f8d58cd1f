import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './browser.ts';

/** Issue 5 in the profile: the first-login page, then binding an authenticator and signing in with it. */
let browser: Browser;
let server: RunningServer;
let ctx: BrowserContext;
let page: Page;
const NEW_PASSWORD = 'E2e-Admin-pass2';

beforeAll(async () => {
  browser = await launchBrowser();
  // Its own server, whose admin has not signed in yet.
  server = await startServer({ GATEHOUSE_ADMIN_FIRST_LOGIN: '1' });
  ctx = await newContext(browser, server.url);
  page = await ctx.newPage();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** A small TOTP (RFC 6238: SHA-1, 6 digits, 30 s) of the secret the page shows. */
const totp = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

describe('the profile', () => {
  it('sends the admin through /profile/improvement on the first sign-in, then into the console', async () => {
    await page.goto('/core/auth/login/');
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL('**/ui/profile/improvement');
    const form = page.getByTestId('password-form');
    await form.waitFor();
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await page.getByRole('button', { name: 'Got it' }).waitFor({ state: 'hidden' });
    await screenshot(page, 'profile-improvement');

    // Forced: the console is out of reach until the page is finished.
    await page.evaluate(() => {
      window.history.pushState({}, '', '/ui/console/dashboard');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL('**/ui/profile/improvement');
    await form.waitFor();

    await form.getByLabel('Current password').fill(E2E_ADMIN_PASSWORD);
    await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Confirm new password').fill('something-else');
    await form.getByRole('button', { name: 'Save the new password' }).click();
    await expect.poll(() => form.textContent()).toContain('The newly set password is inconsistent');
    await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Save the new password' }).click();

    await page.getByTestId('otp-panel').waitFor();
    await page.getByTestId('improvement-finish').click();
    await page.waitForURL('**/ui/console/dashboard');

    // Cleared on the server: a new start of the console stays in it.
    await page.goto('/ui/');
    await page.waitForURL('**/ui/console/dashboard');
    const profile = (await (await ctx.request.get('/api/v1/users/profile/')).json()) as { is_first_login: boolean };
    expect(profile.is_first_login).toBe(false);
  });

  it('binds an authenticator from the profile, then signs in with a generated code', async () => {
    await page.goto('/ui/profile');
    await page.waitForURL('**/ui/profile/info');
    await page.getByTestId('profile-info').waitFor();
    await expect.poll(() => page.getByTestId('info-otp').textContent()).toBe('Not bound');
    await screenshot(page, 'profile-info');

    await page.goto('/ui/profile/setting?activeTab=mfa');
    await page.getByTestId('otp-bind-start').click();
    // Revealing a seed needs a re-verification: the password of this local user.
    const verify = page.getByRole('dialog', { name: 'Verify your identity' });
    await verify.getByTestId('reverify-secret').fill(NEW_PASSWORD);
    await verify.getByTestId('reverify-submit').click();
    const secret = (await page.getByTestId('otp-secret').textContent())!.trim();
    await verify.waitFor({ state: 'hidden' });
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect.poll(() => page.getByTestId('otp-qr').getAttribute('src')).toMatch(/^data:image\//);
    await screenshot(page, 'profile-otp-binding');

    await page.getByTestId('otp-code').fill('12345');
    await page.getByTestId('otp-bind-confirm').click();
    await expect.poll(() => page.getByTestId('otp-error').textContent()).toBe('MFA Error, please check');
    await page.getByTestId('otp-code').fill(totp(secret, -1));
    await page.getByTestId('otp-bind-confirm').click();
    await expect.poll(() => page.getByTestId('otp-state').textContent()).toBe('Bound');

    // The console may still be loading after the bind when the logout is asked (Chromium then aborts
    // the first navigation): ask again, the logout is the same.
    await page.goto('/core/auth/logout/').catch(() => page.goto('/core/auth/logout/'));
    await page.waitForURL(/\/core\/auth\/login\//);
    await signIn(page, 'admin', NEW_PASSWORD);
    await page.getByTestId('mfa-step').waitFor();
    await page.getByLabel('Verification code').fill(totp(secret, 0));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/ui/console/dashboard');

    // Removing it takes a current code (a later one: each code is accepted once).
    await page.goto('/ui/profile/setting?activeTab=mfa');
    await page.getByTestId('otp-code').fill(totp(secret, 1));
    await page.getByTestId('otp-unbind').click();
    await expect.poll(() => page.getByTestId('otp-state').textContent()).toBe('Not bound');
  });
});
