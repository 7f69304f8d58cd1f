import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signInAdmin } from './browser.ts';
import { osUser, startSshd, type SshdWithUsers } from '@gatehouse/server/test-support/sshd.ts';
import ssh2 from 'ssh2';

/**
 * Change secret in the console (issue 30): a plan created in the form over a host whose SSH is a
 * real OpenSSH with a throw-away user of this machine, run from its row, its task log read while it
 * runs, its execution and per-account record read; the user then signs in with the new password.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let sshd: SshdWithUsers;
let user: ReturnType<typeof osUser>;

beforeAll(async () => {
  user = osUser('E2e-old-pass-1');
  sshd = await startSshd({ osUsers: [user.username] });
  browser = await launchBrowser();
  ctx = await newContext(browser, inject('baseURL'), { width: 1400, height: 900 });
  page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  sshd?.stop();
  user?.remove();
});

const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);
const form = () => page.getByTestId('resource-form');
const field = (label: string) => form().getByLabel(label, { exact: true });
async function settled() {
  await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0);
}

describe('change secret plans', () => {
  it('creates a plan, runs it, follows its task log and reads its record', async () => {
    const host = await api<{ id: string; name: string }>('POST', '/api/v1/assets/hosts/', {
      name: 'cs-e2e-host',
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: sshd.port }],
    });
    await api('POST', '/api/v1/accounts/accounts/', {
      asset: host.id,
      username: 'root',
      secret_type: 'ssh_key',
      secret: sshd.privateKey,
      privileged: true,
    });
    await api('POST', '/api/v1/accounts/accounts/', { asset: host.id, username: user.username, secret: user.password });

    await page.goto('/ui/console/accounts/account-change-secret/create');
    await form().waitFor();
    await field('Name').fill('e2e-change-secret');
    await page.locator('#accounts').fill(user.username);
    await page.keyboard.press('Enter');
    await page.locator('#assets').click();
    await page.locator('#assets').fill('cs-e2e');
    await page.locator('.ant-select-item-option', { hasText: 'cs-e2e-host' }).first().click();
    await page.keyboard.press('Escape');
    await field('Secret').fill('E2e-new-pass-2');
    await field('Periodic run').click(); // off: run by hand only
    await screenshot(page, 'automations-change-secret-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/account-change-secret\/?(\?.*)?$|account-change-secret\/[0-9a-f-]{36}/);

    await page.goto('/ui/console/accounts/account-change-secret/');
    const row = page.locator('tr.ant-table-row', { has: page.getByRole('link', { name: 'e2e-change-secret' }) });
    await row.waitFor();
    await settled();
    await screenshot(page, 'automations-change-secret-list');

    // Execute from the row: the task log opens in a new tab and streams the run.
    const popup = ctx.waitForEvent('page');
    await row.locator('[data-action="execute"]').click();
    const log = await popup;
    const terminal = log.getByTestId('task-log-terminal');
    await terminal.locator('.xterm-rows').waitFor();
    await expect
      .poll(() => terminal.locator('.xterm-rows').textContent(), { timeout: 60_000 })
      .toContain('changed and verified');
    await log.getByTestId('task-log-ended').waitFor({ timeout: 30_000 });
    await screenshot(log, 'automations-change-secret-task-log');
    await log.close();

    // The executions tab, then its records.
    await page.goto('/ui/console/accounts/account-change-secret/?activeTab=executions');
    const exec = page.locator('tr.ant-table-row', { hasText: 'e2e-change-secret' }).first();
    await exec.waitFor();
    await expect.poll(() => exec.textContent(), { timeout: 30_000 }).toContain('Success');
    await settled();
    await screenshot(page, 'automations-change-secret-executions');
    await exec.locator('[data-action="records"]').click();
    const record = page.locator('tr.ant-table-row', { hasText: 'cs-e2e-host' }).first();
    await record.waitFor();
    await expect.poll(() => record.textContent()).toContain('New secret works');
    await settled();
    await screenshot(page, 'automations-change-secret-records');

    // The plan's detail: its assets tab lists the host.
    const plans = await api<{ id: string; name: string }[]>(
      'GET',
      '/api/v1/accounts/change-secret-automations/?name=e2e-change-secret',
    );
    await page.goto(`/ui/console/accounts/account-change-secret/${plans[0]!.id}?activeTab=assets`);
    await page.getByTestId('automation-assets').getByText('cs-e2e-host(127.0.0.1)').waitFor();
    await settled();
    await screenshot(page, 'automations-change-secret-detail-assets');

    const signedIn = await new Promise<boolean>((resolve) => {
      const c = new ssh2.Client();
      c.once('ready', () => (c.end(), resolve(true)));
      c.once('error', () => resolve(false));
      c.connect({ host: '127.0.0.1', port: sshd.port, username: user.username, password: 'E2e-new-pass-2' });
    });
    expect(signedIn).toBe(true);
  }, 180_000);

  it('shows what a gather found against the vault and syncs it from the gathered accounts tab', async () => {
    const [host] = await api<{ id: string }[]>('GET', '/api/v1/assets/hosts/?name=cs-e2e-host');
    const hidden = osUser('E2e-hidden-1');
    try {
      const plan = await api<{ id: string }>('POST', '/api/v1/accounts/gather-account-automations/', {
        name: 'e2e-gather',
        assets: [host!.id],
        is_periodic: false,
      });
      const { task } = await api<{ task: string }>('POST', '/api/v1/accounts/gather-account-executions/', {
        automation: plan.id,
      });
      await expect
        .poll(
          async () =>
            (await api<{ status: { value: string } }>('GET', `/api/v1/accounts/gather-account-executions/${task}/`))
              .status.value,
          { timeout: 60_000 },
        )
        .toBe('success');
      await page.goto('/ui/console/accounts/account-gather/?activeTab=gathered');
      const row = page.locator('tr.ant-table-row', { hasText: hidden.username });
      await row.waitFor();
      await expect.poll(() => row.textContent()).toContain('Not in the vault');
      await settled();
      await screenshot(page, 'automations-gathered-accounts');
      await row.locator('[data-action="sync"]').click();
      await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('In the vault');
      await page.goto('/ui/console/accounts/account-push/');
      await page.getByTestId('tab-page').waitFor();
      await settled();
      await screenshot(page, 'automations-push-list');
    } finally {
      hidden.remove();
    }
  }, 120_000);
});
