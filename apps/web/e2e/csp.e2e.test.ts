import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, signInAdmin } from './browser.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';

/**
 * The console runs under the server's Content-Security-Policy (apps/server/src/http/securityHeaders.ts):
 * the login page, the shell, a list page and the task-log page load and work without one CSP
 * violation, and the console cannot be framed.
 */
let browser: Browser;
let context: BrowserContext;
let page: Page;
const violations: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, inject('baseURL'));
  page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
});
afterAll(async () => {
  await browser.close();
});

describe('the console under its CSP', () => {
  it('signs in and shows the shell, a list and the task log without a CSP violation', async () => {
    const login = await page.goto('/core/auth/login/');
    expect(login?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await signInAdmin(page, E2E_ADMIN_PASSWORD);
    await page.goto('/ui/console/users/users/');
    await page.getByTestId('search-input').waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    await page.goto('/ui/ops/celery/task/no-such-task/log/');
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });

  it('is not shown inside a frame of another page', async () => {
    const other = await context.newPage();
    await other.setContent(`<iframe id="f" src="${inject('baseURL')}/ui/"></iframe>`);
    await other.waitForTimeout(1500);
    const frame = other.frames().find((f) => f.url().includes('/ui/'));
    const framed = frame
      ? await frame
          .locator('#root')
          .count()
          .catch(() => 0)
      : 0;
    expect(framed).toBe(0);
    await other.close();
  });
});
