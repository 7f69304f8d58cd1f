import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, pickOption, screenshot } from './browser.ts';

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

/** One attribute of the account form's provider inputs, by its label. */
const attr = (label: string): Locator =>
  page.locator('[data-testid="cloud-attrs"] .ant-space-item').filter({ hasText: new RegExp(`^\\*? ?${label}`) });

const PROVIDERS: [string, string, string[]][] = [
  ['lan', 'LAN', ['IP group', 'Test port', 'Test timeout (seconds)', 'Hostname prefix', 'Domain']],
  ['aws_international', 'AWS (International)', ['Access key ID', 'Access key secret']],
  ['azure_international', 'Azure (International)', ['Client ID', 'Client secret', 'Tenant ID', 'Subscription ID']],
  ['aliyun', 'Alibaba Cloud', ['Access key ID', 'Access key secret']],
];

describe('cloud center', () => {
  it('creates a lan account and a task, executes it, and shows the hosts in the asset tree', async () => {
    const prefix = `cl${RUN}-`;
    await page.goto('/ui/console/assets/cloud/');
    await page.waitForURL(/\/console\/assets\/cloud\/sync-instance-tasks\/?(\?.*)?$/);
    await page.getByRole('tab', { name: 'Accounts' }).click();
    await page.waitForURL(/\/cloud\/accounts\/?(\?.*)?$/);
    // The tasks tab's list (and its Create) may still be on screen right after the switch.
    await page.getByRole('columnheader', { name: 'Provider' }).waitFor();
    await page.getByRole('button', { name: 'Create' }).first().click();
    await page.waitForURL(/\/cloud\/accounts\/create/);
    await item('Name').locator('input').fill(`office-${RUN}`);
    const groupInput = attr('IP group').locator('input');
    await groupInput.fill('127.0.0.7-9');
    await groupInput.press('Enter');
    await attr('Test port').locator('input').fill(String(port));
    await attr('Hostname prefix').locator('input').fill(prefix);
    await screenshot(page, 'cloud-account-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/cloud\/accounts\/?(\?.*)?$/);
    await page.locator('tr.ant-table-row', { hasText: `office-${RUN}` }).waitFor();
    await screenshot(page, 'cloud-accounts');

    await page.getByRole('tab', { name: 'Sync tasks' }).click();
    await page.waitForURL(/\/cloud\/sync-instance-tasks\/?(\?.*)?$/);
    await page.getByRole('columnheader', { name: 'Provider' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create' }).first().click();
    await page.waitForURL(/\/cloud\/sync-instance-tasks\/create/);
    await item('Name').locator('input').fill(`scan-${RUN}`);
    await item('Account').locator('.ant-select').first().click();
    await page.keyboard.type(`office-${RUN}`);
    await pickOption(
      page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: `office-${RUN}` })
        .first(),
    );
    await expect.poll(() => item('Account').textContent()).toContain(`office-${RUN}`);
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

    // 127.0.0.8 stops answering: the next run releases it (its asset kept, the task's default
    // policy), and "Release" on the instances tab deletes that asset, not the other.
    await new Promise((closed) => servers[1]!.close(closed));
    const TASKS = '/api/v1/xpack/cloud/sync-instance-tasks/';
    const again = await apiCall<{ task: string }>(ctx, 'GET', `${TASKS}${task.id}/run/`);
    await expect
      .poll(async () => {
        const runs = await apiCall<{ id: string; is_finished: boolean }[]>(ctx, 'GET', `${TASKS}${task.id}/history/`);
        return runs.find((r) => r.id === again.task)?.is_finished;
      })
      .toBe(true);
    await page.goto(`/ui/console/assets/cloud/sync-instance-tasks/${task.id}?activeTab=CloudTaskInstances`);
    await page.locator('tr.ant-table-row', { hasText: '127.0.0.8' }).filter({ hasText: 'released' }).waitFor();
    await page.getByTestId('cloud-release').click();
    const confirm = page.getByRole('dialog', { name: 'Release' });
    await confirm.getByRole('button', { name: 'OK' }).click();
    await page.getByText('1 asset(s) deleted').waitFor();
    await confirm.waitFor({ state: 'hidden' });
    await expect
      .poll(async () =>
        (await apiCall<{ name: string }[]>(ctx, 'GET', `/api/v1/assets/hosts/?search=${prefix}`)).map((h) => h.name),
      )
      .toEqual([`${prefix}127.0.0.7`]);
    await screenshot(page, 'cloud-task-released');
  }, 120_000);

  it('shows each provider’s attributes in the account form, and saves an Azure account with its secret sealed', async () => {
    await page.goto('/ui/console/assets/cloud/accounts/create');
    await item('Name').locator('input').fill(`azure-${RUN}`);
    for (const [name, label, fields] of PROVIDERS) {
      await item('Provider').locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: label }).click();
      await page.locator('.ant-select-dropdown').last().waitFor({ state: 'hidden' });
      const labels = page.getByTestId('cloud-attr-label');
      await expect.poll(() => labels.allTextContents()).toEqual(fields.map((f) => expect.stringContaining(f)));
      await screenshot(page, `cloud-account-form-${name}`);
    }
    // Azure (International) is chosen last but one: choose it again and fill its attributes.
    await item('Provider').locator('.ant-select').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'Azure (International)' })
      .click();
    const ids = {
      client_id: '0b6f3c1e-1111-4222-8333-444455556666',
      tenant_id: 'contoso.onmicrosoft.com',
      subscription_id: '9a8b7c6d-1111-4222-8333-444455556666',
    };
    await attr('Client ID').locator('input').fill(ids.client_id);
    await attr('Client secret').locator('input').fill('Qk8Q~typed-in-the-form');
    await attr('Tenant ID').locator('input').fill(ids.tenant_id);
    await attr('Subscription ID').locator('input').fill(ids.subscription_id);
    await screenshot(page, 'cloud-account-form-azure-filled');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/cloud\/accounts\/?(\?.*)?$/);
    await page.locator('tr.ant-table-row', { hasText: `azure-${RUN}` }).waitFor();
    const saved = (
      await apiCall<{ id: string; provider: unknown; attrs: Record<string, string> }[]>(
        ctx,
        'GET',
        `/api/v1/xpack/cloud/accounts/?name=azure-${RUN}`,
      )
    )[0]!;
    expect(saved.attrs).toEqual(ids);
    // The update form: the sealed secret is not shown back, and may be left empty.
    await page.goto(`/ui/console/assets/cloud/accounts/${saved.id}/update`);
    await expect.poll(() => attr('Tenant ID').locator('input').inputValue()).toBe(ids.tenant_id);
    expect(await attr('Client secret').locator('input').inputValue()).toBe('');
    await screenshot(page, 'cloud-account-form-azure-update');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/cloud\/accounts\/?(\?.*)?$/);
  }, 120_000);
});
