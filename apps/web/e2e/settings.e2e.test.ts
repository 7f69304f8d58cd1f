import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, screenshot } from './browser.ts';

/**
 * The settings pages (features/settings/form/): a change saved from the Security page survives a
 * reload, a bad value shows the server's message under its field and changes nothing; the
 * Terminal page lists the built-in gateway; Cleaning shows the retention days; /settings opens
 * Basic, whose help links reach the navbar's help menu as soon as they are saved.
 */

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const IDLE = 'Connection idle timeout (minutes)';
const SETTING = '/api/v1/settings/setting/';
const DOCS_DEFAULT = 'https://docs.jumpserver.org/zh/v3/';

const idleOnServer = async () =>
  (await apiCall<{ SECURITY_MAX_IDLE_TIME: number }>(ctx, 'GET', `${SETTING}?category=security_session`))
    .SECURITY_MAX_IDLE_TIME;

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  // The server is shared with the other browser tests: leave the defaults behind.
  await apiCall(ctx, 'PATCH', `${SETTING}?category=security_session`, { SECURITY_MAX_IDLE_TIME: 30 });
  await apiCall(ctx, 'PATCH', `${SETTING}?category=basic`, { HELP_DOCUMENT_URL: DOCS_DEFAULT });
  await browser.close();
});

describe('settings pages', () => {
  it('saves the idle timeout from the Security page, and it stays after a reload', async () => {
    await page.goto('/ui/settings/security');
    const form = page.getByTestId('settings-form-security');
    await form.getByLabel(IDLE).waitFor();
    expect(await form.getByLabel(IDLE).inputValue()).toBe('30');
    await expect.poll(() => page.getByRole('menuitem', { name: 'Cleaning' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'settings-security');
    await form.getByLabel(IDLE).fill('45');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    expect(await idleOnServer()).toBe(45);
    await page.reload();
    await form.getByLabel(IDLE).waitFor();
    expect(await form.getByLabel(IDLE).inputValue()).toBe('45');
  });

  it('shows a bad value’s message under its field and keeps the stored value', async () => {
    const form = page.getByTestId('settings-form-security');
    await form.getByLabel(IDLE).fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    const item = form.locator('.ant-form-item').filter({ has: page.getByLabel(IDLE) });
    await item.getByText('Ensure this value is greater than or equal to 1.').waitFor();
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-security-error');
    expect(await idleOnServer()).toBe(45);
    await page.reload();
    await form.getByLabel(IDLE).waitFor();
    expect(await form.getByLabel(IDLE).inputValue()).toBe('45');
  });

  it('lists the built-in gateway on the Terminal page and the retention days on Cleaning', async () => {
    await page.goto('/ui/settings/terminal');
    await page.getByTestId('settings-form-terminal').getByLabel('Reusable connection tokens').waitFor();
    await screenshot(page, 'settings-terminal');
    await page.getByRole('tab', { name: 'Components' }).click();
    const rows = page.getByTestId('terminal-components').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    // The load depends on this machine's (the instance's own CPU load average): not asserted.
    expect(await rows.first().textContent()).toMatch(/gatehouse.*127\.0\.0\.1.*Yes/);
    await screenshot(page, 'settings-terminal-components');
    await page.goto('/ui/settings/clean');
    const clean = page.getByTestId('settings-form-clean');
    await clean.getByLabel('Task logs (days)').waitFor();
    expect(await clean.getByLabel('Task logs (days)').inputValue()).toBe('90');
    await screenshot(page, 'settings-clean');
  });

  it('opens Basic from /settings, and a saved documentation link is the help menu’s at once', async () => {
    await page.goto('/ui/settings');
    await page.waitForURL(/\/ui\/settings\/basic$/);
    const form = page.getByTestId('settings-form-basic');
    const docs = form.getByLabel('Documentation URL');
    await docs.waitFor();
    expect(await docs.inputValue()).toBe(DOCS_DEFAULT);
    expect(await form.getByLabel('Site URL').inputValue()).toMatch(/^http/);
    await screenshot(page, 'settings-basic');
    await docs.fill('not a link');
    await page.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Enter a valid URL.').waitFor();
    await docs.fill('https://docs.example.test/gatehouse/');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    await page.getByTestId('help-menu').click();
    const link = page.getByRole('link', { name: 'Docs' });
    await expect.poll(() => link.getAttribute('href')).toBe('https://docs.example.test/gatehouse/');
  });
});
