import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './browser.ts';

/** Issue 5, the session side of the console: a lost session, the expiry cookie, a guarded export. */
let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  browser = await launchBrowser();
  // Its own server: these tests end sessions and change a security setting in the database.
  server = await startServer();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function signedIn(): Promise<Page> {
  const ctx = await newContext(browser, server.url);
  const page = await ctx.newPage();
  await page.goto('/core/auth/login/');
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL('**/ui/console/dashboard');
  await page
    .getByRole('button', { name: 'Got it' })
    .click({ timeout: 3000 })
    .catch(() => undefined);
  return page;
}

/** Moves inside the single-page app without reloading it (the router follows popstate). */
async function spaNavigate(page: Page, to: string): Promise<void> {
  await page.evaluate((url) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

describe('the session in the console', () => {
  it('asks to log in again when the session ends on the server in the middle of the work', async () => {
    const page = await signedIn();
    server.withDatabase((db) => db.prepare('DELETE FROM auth_session').run());
    // The next call of the console (the users list) answers 401.
    await spaNavigate(page, '/ui/console/users/users/');
    const confirm = page.getByRole('dialog').filter({ hasText: 'Please login again' });
    await confirm.waitFor();
    await page.waitForTimeout(400); // the dialog's opening animation
    await screenshot(page, 'session-relogin');
    await confirm.getByRole('button', { name: 'Re-login' }).click();
    await page.waitForURL(/\/core\/auth\/login\//);
    await page.context().close();
  });

  it('goes to the login page once the jms_session_expire cookie is gone', async () => {
    const page = await signedIn();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'jms_session_expire')?.value).toBeTruthy();
    await page.context().clearCookies({ name: 'jms_session_expire' });
    // The heartbeat (every 10 s) notices and signs out.
    await page.waitForURL(/\/core\/auth\/login\//, { timeout: 20_000 });
    await page.context().close();
  });

  it('re-verifies the password before a guarded users export, then downloads it', async () => {
    server.withDatabase((db) =>
      db
        .prepare(
          `INSERT INTO settings_setting (name, value, category, encrypted, date_updated) VALUES ('SECURITY_EXPORT_NEED_CONFIRM', 'true', 'security', 0, ?)`,
        )
        .run(new Date().toISOString()),
    );
    await new Promise((r) => setTimeout(r, 5200)); // settings are re-read every 5 s
    const page = await signedIn();
    await page.goto('/ui/console/users/users/');
    await page.getByTestId('list-export').click();
    const exportDialog = page.getByRole('dialog', { name: 'Export' });
    await exportDialog.waitFor();
    const downloaded = page.waitForEvent('download');
    await exportDialog.getByRole('button', { name: 'Export' }).click();

    const verify = page.getByRole('dialog', { name: 'Verify your identity' });
    await verify.waitFor();
    await verify.getByTestId('reverify-secret').waitFor();
    await page.waitForTimeout(400); // the dialog's opening animation
    await screenshot(page, 'session-reverify');
    await verify.getByTestId('reverify-secret').fill('not-the-password');
    await verify.getByTestId('reverify-submit').click();
    // The refusal shows under the field; only then is the dialog ready for the next try (a click
    // while the first check is on its way is swallowed by the button's loading state).
    await verify.getByText('Authentication failed (password incorrect)').waitFor();
    await verify.getByTestId('reverify-secret').fill(E2E_ADMIN_PASSWORD);
    await verify.getByTestId('reverify-submit').click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toMatch(/^user_.*\.csv$/);
    await verify.waitFor({ state: 'hidden' });
    await page.context().close();
  });
});
