import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, searchAndPick, signInAdmin } from './browser.ts';

/**
 * Account backup in the console (issue 30): a plan made in the form (the types tree, both recipient
 * parts), run from its row with its task log, its execution read in the executions tab and its
 * encrypted file downloaded by the superuser after verifying again.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  ctx = await newContext(browser, inject('baseURL'), { width: 1400, height: 900 });
  page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
});
afterAll(async () => {
  await browser?.close();
});

const form = () => page.getByTestId('resource-form');
async function settled() {
  await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0);
}
async function pickUser(id: string) {
  // This select's own dropdown (its list has the input's id): the other select's may still be
  // fading out, and the first visible option could be that one's.
  const dropdown = page.locator('.ant-select-dropdown', { has: page.locator(`#${id}_list`) });
  const item = page.locator('.ant-form-item', { has: page.locator(`#${id}`) });
  await searchAndPick(
    page.locator(`#${id}`),
    'admin',
    dropdown.locator('.ant-select-item-option', { hasText: 'admin' }).first(),
    async () => (await item.locator('.ant-select-selection-item').count()) === 1,
  );
  await page.keyboard.press('Escape');
  await dropdown.waitFor({ state: 'hidden' });
}

describe('account backup plans', () => {
  it('creates a plan, runs it, reads its execution and downloads the file after verifying again', async () => {
    await page.goto('/ui/console/accounts/account-backup/create');
    await form().waitFor();
    await form().getByLabel('Name', { exact: true }).fill('e2e-backup');
    await page.getByTestId('backup-types').click();
    await page
      .locator('.ant-select-tree-treenode', { hasText: 'Host' })
      .first()
      .locator('.ant-select-tree-checkbox')
      .click();
    await page.keyboard.press('Escape');
    await pickUser('recipients_part_one');
    await pickUser('recipients_part_two');
    await screenshot(page, 'account-backup-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/account-backup\/?(\?.*)?$|account-backup\/[0-9a-f-]{36}/);

    await page.goto('/ui/console/accounts/account-backup/');
    const row = page.locator('tr.ant-table-row', { has: page.getByRole('link', { name: 'e2e-backup' }) });
    await row.waitFor();
    await settled();
    await screenshot(page, 'account-backup-list');

    const popup = ctx.waitForEvent('page');
    await row.locator('[data-action="execute"]').click();
    const log = await popup;
    await log.getByTestId('task-log-ended').waitFor({ timeout: 60_000 });
    await log.close();

    await page.goto('/ui/console/accounts/account-backup/?activeTab=executions');
    const exec = page.locator('tr.ant-table-row', { hasText: 'e2e-backup' }).first();
    await exec.waitFor();
    await expect.poll(() => exec.textContent(), { timeout: 30_000 }).toContain('Success');
    await settled();
    await screenshot(page, 'account-backup-executions');

    const download = page.waitForEvent('download');
    await exec.locator('[data-action="download"]').click();
    const verify = page.getByRole('dialog', { name: 'Verify your identity' });
    await verify.getByTestId('reverify-secret').fill(E2E_ADMIN_PASSWORD);
    await verify.getByTestId('reverify-submit').click();
    const file = fs.readFileSync(await (await download).path());
    expect(file.subarray(0, 8).toString()).toBe('Salted__');

    const plans = await apiCall<{ id: string }[]>(ctx, 'GET', '/api/v1/accounts/account-backup-plans/?name=e2e-backup');
    await page.goto(`/ui/console/accounts/account-backup/${plans[0]!.id}`);
    await page.getByTestId('backup-run').waitFor();
    await settled();
    await screenshot(page, 'account-backup-detail');
  }, 180_000);
});
