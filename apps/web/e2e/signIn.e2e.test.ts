import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer } from './server.ts';
import { launchBrowser, newContext, pickMenuItem, screenshot, signIn } from './browser.ts';

/** Issue 2's walking skeleton, as a person uses it: the login page, the console, sign-out, the lock. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

describe('signing in through the login page', () => {
  it('takes the admin to the console dashboard, survives a reload, and signs out', async () => {
    const ctx = await newContext(browser, inject('baseURL'));
    const page = await ctx.newPage();
    await page.goto('/ui/console/dashboard');
    await page.waitForURL(/\/core\/auth\/login\/\?next=/);
    await expect.poll(() => page.title()).toBe('Sign in - Gatehouse');
    await screenshot(page, 'login-page');

    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL('**/ui/console/dashboard');
    await expect.poll(() => page.getByTestId('dashboard-welcome').textContent()).toContain('Welcome, Administrator');
    expect(await page.title()).toBe('Dashboard - Gatehouse');
    await screenshot(page, 'console-dashboard');

    await page.reload();
    await page.getByTestId('dashboard-welcome').waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/console/dashboard');

    await page.getByTestId('account-menu').click();
    await pickMenuItem(page, 'Log out');
    await page.waitForURL(/\/core\/auth\/login\//);
    await page.goto('/ui/console/dashboard');
    await page.waitForURL(/\/core\/auth\/login\//);
    await ctx.close();
  });

  it('shows the error for a wrong password and stays on the login page', async () => {
    const ctx = await newContext(browser, inject('baseURL'));
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await signIn(page, 'admin', 'not-the-password');
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('The username or password you entered is incorrect');
    expect(new URL(page.url()).pathname).toBe('/core/auth/login/');
    expect((await ctx.cookies()).some((c) => c.name === 'jms_sessionid')).toBe(false);
    await screenshot(page, 'login-error');
    await ctx.close();
  });

  it('goes to the login page when the jms_session_expire cookie is gone', async () => {
    const ctx = await newContext(browser, inject('baseURL'));
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL('**/ui/console/dashboard');
    await ctx.clearCookies({ name: 'jms_session_expire' });
    await page.reload();
    await page.waitForURL(/\/core\/auth\/login\//);
    await ctx.close();
  });

  it('offers the page in Chinese and Japanese, following the language cookie', async () => {
    const ctx = await newContext(browser, inject('baseURL'));
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await page.getByText('中文').click();
    await page
      .getByRole('button', { name: '登 录' })
      .or(page.getByRole('button', { name: '登录' }))
      .waitFor();
    expect((await ctx.cookies()).find((c) => c.name === 'django_language')?.value).toBe('zh-hans');
    await page.reload();
    await page.getByText('用户名').waitFor();
    await page.getByText('日本語').click();
    await page.getByText('ユーザー名').waitFor();
    await screenshot(page, 'login-ja');
    await ctx.close();
  });
});

describe('the login lock', () => {
  it('refuses the 8th attempt after 7 failures, even with the right password, with the lock message', async () => {
    const server = await startServer();
    const ctx = await newContext(browser, server.url);
    const page = await ctx.newPage();
    try {
      await page.goto('/core/auth/login/');
      const error = page.getByTestId('login-error');
      for (let i = 1; i <= 7; i++) {
        await signIn(page, 'admin', `wrong-${i}`);
        await expect
          .poll(() => error.textContent())
          .toMatch(i < 7 ? new RegExp(`try ${7 - i} times`) : /has been locked/);
      }
      await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
      await expect
        .poll(() => error.textContent())
        .toBe('The account has been locked (please contact admin to unlock it or try again after 30 minutes)');
      expect(new URL(page.url()).pathname).toBe('/core/auth/login/');
      await screenshot(page, 'login-locked');
    } finally {
      await ctx.close();
      await server.stop();
    }
  });
});
