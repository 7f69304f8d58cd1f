import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, screenshot } from './browser.ts';

/**
 * Settings › Tasks: Gatehouse's own tasks listed, one run from its drawer (the history shows it
 * succeed), a periodic one switched off and on again, and the Cleaning tab kept.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  await apiCall(ctx, 'PATCH', '/api/v1/ops/celery/period-tasks/perm_expire_notify/', { enabled: true });
  await browser.close();
});

describe('Tasks page', () => {
  it('lists the tasks, runs one from its history and switches a periodic one', async () => {
    await page.goto('/ui/settings/tasks');
    const list = page.getByTestId('task-list');
    await list.getByText('Clean audit records older than their keep days').waitFor();
    await screenshot(page, 'settings-tasks');

    await list.getByText('Clean audit records older than their keep days').click();
    await page.getByTestId('task-run').click();
    const history = page.getByTestId('task-history');
    await expect.poll(() => history.getByText('Success').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(page, 'settings-task-history');
    await page.keyboard.press('Escape');

    await page.getByTestId('task-enabled-perm_expire_notify').click();
    await expect
      .poll(
        async () =>
          (await apiCall<{ enabled: boolean }>(ctx, 'GET', '/api/v1/ops/celery/period-tasks/perm_expire_notify/'))
            .enabled,
      )
      .toBe(false);

    await page.getByRole('tab', { name: 'Cleaning' }).click();
    await page.getByTestId('settings-form-clean').waitFor();
  });
});
