import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, screenshot } from './browser.ts';

/**
 * Issue 35, cloud sync in the console: a `lan` account and a sync task made through the cloud
 * center's forms, the task executed from its row, and the hosts it found in the asset tree. The
 * hosts are TCP listeners this test starts on 127.0.0.7 and 127.0.0.8 (docs/cloud.md, "Providers").
 */
const RUN = Date.now().toString(36).slice(-5);
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let port = 0;
const servers: net.Server[] = [];

const listen = (host: string, p: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const s = net.createServer((c) => c.destroy());
    s.once('error', reject);
    s.listen(p, host, () => resolve(s));
  });

beforeAll(async () => {
  servers.push(await listen('127.0.0.7', 0));
  port = (servers[0]!.address() as net.AddressInfo).port;
  servers.push(await listen('127.0.0.8', port));
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  await browser.close();
  for (const s of servers) s.close();
});

const item = (label: string): Locator =>
  page.locator('.ant-form-item', { has: page.locator(`label[title="${label}"]`) });

describe('cloud center', () => {
  it('creates a lan account and a task, executes it, and shows the hosts in the asset tree', async () => {
    const prefix = `cl${RUN}-`;
    await page.goto('/ui/console/assets/cloud/');
    await page.waitForURL(/\/console\/assets\/cloud\/sync-instance-tasks\/?(\?.*)?$/);
    await page.getByRole('tab', { name: 'Accounts' }).click();
    await page.waitForURL(/\/cloud\/accounts\/?(\?.*)?$/);
    await page.getByRole('button', { name: 'Create' }).first().click();
    await item('Name').locator('input').fill(`office-${RUN}`);
    await item('Attributes')
      .locator('textarea')
      .fill(JSON.stringify({ ip_group: ['127.0.0.7-9'], test_port: port, test_timeout: 1, hostname_prefix: prefix }));
    await screenshot(page, 'cloud-account-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/cloud\/accounts\/?(\?.*)?$/);
    await page.locator('tr.ant-table-row', { hasText: `office-${RUN}` }).waitFor();
    await screenshot(page, 'cloud-accounts');

    await page.getByRole('tab', { name: 'Sync tasks' }).click();
    await page.waitForURL(/\/cloud\/sync-instance-tasks\/?(\?.*)?$/);
    await page.getByRole('button', { name: 'Create' }).first().click();
    await item('Name').locator('input').fill(`scan-${RUN}`);
    await item('Account').locator('.ant-select').first().click();
    await page.keyboard.type(`office-${RUN}`);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `office-${RUN}` })
      .first()
      .click({ timeout: 15_000 });
    await screenshot(page, 'cloud-task-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/cloud\/sync-instance-tasks\/?(\?.*)?$/);
    const row = page.locator('tr.ant-table-row', { hasText: `scan-${RUN}` });
    await row.waitFor();
    await screenshot(page, 'cloud-tasks');
    const logTab = ctx.waitForEvent('page');
    await row.locator('[data-action="execute"]').click();
    const log = await logTab;
    await log.waitForURL(/\/ops\/celery\/task\/[\w-]+\/log\//);
    await expect.poll(() => log.locator('.xterm-rows').textContent(), { timeout: 30_000 }).toContain('Summary');
    await screenshot(log, 'cloud-task-log');
    await log.close();

    const hosts = await apiCall<{ name: string }[]>(ctx, 'GET', `/api/v1/assets/hosts/?search=${prefix}`);
    expect(hosts.map((h) => h.name).sort()).toEqual([`${prefix}127.0.0.7`, `${prefix}127.0.0.8`]);
    await page.goto(`/ui/console/assets/assets/?activeTab=all&search=${prefix}`);
    await page.locator('tr.ant-table-row', { hasText: `${prefix}127.0.0.8` }).waitFor();
    await page.getByTestId('node-tree').waitFor();
    await screenshot(page, 'cloud-imported-hosts');

    // The task's detail: its history and instances.
    const task = (
      await apiCall<{ id: string }[]>(ctx, 'GET', `/api/v1/xpack/cloud/sync-instance-tasks/?name=scan-${RUN}`)
    )[0]!;
    await page.goto(`/ui/console/assets/cloud/sync-instance-tasks/${task.id}?activeTab=CloudTaskInstances`);
    await page.locator('tr.ant-table-row', { hasText: '127.0.0.7' }).waitFor();
    await screenshot(page, 'cloud-task-instances');
    await page.goto(`/ui/console/assets/cloud/sync-instance-tasks/${task.id}?activeTab=CloudTaskHistory`);
    await page.locator('tr.ant-table-row', { hasText: 'created: 2' }).waitFor();
    await screenshot(page, 'cloud-task-history');
  }, 120_000);
});
