import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startS3, type TestS3 } from '@gatehouse/server/test-support/s3.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, screenshot } from './browser.ts';

/**
 * Settings › Terminal's new tabs and Settings › Tools in the browser: an S3 replay storage created
 * from its form (its type's settings as inputs) and tested against a real s3rver on loopback; an
 * endpoint and a rule choosing it; ping run from the tools page with its output shown as it comes.
 * The shared server's default storage is left as it was; what the tests create is removed.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let s3: TestS3;
const rows = () => page.locator('[data-testid="resource-list"] tr.ant-table-row');

beforeAll(async () => {
  s3 = await startS3();
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  for (const [url, name] of [
    ['/api/v1/terminal/replay-storages/', 'e2e-s3'],
    ['/api/v1/terminal/endpoint-rules/', 'e2e-vpn'],
    ['/api/v1/terminal/endpoints/', 'e2e-office'],
  ] as const) {
    const found = await apiCall<{ id: string }[]>(ctx, 'GET', `${url}?name=${name}`).catch(() => []);
    for (const x of found) await apiCall(ctx, 'DELETE', `${url}${x.id}/`).catch(() => undefined);
  }
  await browser.close();
  await s3?.stop();
});

describe('terminal settings', () => {
  it('creates an S3 replay storage from its form and tests it', async () => {
    await page.goto('/ui/settings/terminal?activeTab=replay');
    await rows().filter({ hasText: 'default' }).waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/settings/terminal/replay-storage/create');
    const form = page.locator('form');
    await form.getByLabel('Name').fill('e2e-s3');
    const meta = page.getByTestId('storage-meta');
    await meta.locator('input[name="meta.BUCKET"]').fill(s3.bucket);
    await meta.locator('input[name="meta.ACCESS_KEY"]').fill(s3.accessKey);
    await meta.locator('input[name="meta.SECRET_KEY"]').fill(s3.secretKey);
    await meta.locator('input[name="meta.ENDPOINT"]').fill(s3.endpoint);
    await screenshot(page, 'terminal-replay-storage-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/settings/terminal?activeTab=replay');
    const row = rows().filter({ hasText: 'e2e-s3' });
    await row.waitFor();
    await row.locator('[data-action="test"]').click();
    await page.getByText('Connected: the storage can be written to.').waitFor();
    await screenshot(page, 'terminal-replay-storages');
    const saved = await apiCall<{ meta: Record<string, string> }[]>(
      ctx,
      'GET',
      '/api/v1/terminal/replay-storages/?name=e2e-s3',
    );
    expect(saved[0]!.meta).toEqual({ BUCKET: s3.bucket, ACCESS_KEY: s3.accessKey, ENDPOINT: s3.endpoint });
  });

  it('lists the database command storage and offers Elasticsearch’s settings in the form', async () => {
    await page.goto('/ui/settings/terminal?activeTab=command');
    await rows().filter({ hasText: 'Database' }).waitFor();
    await screenshot(page, 'terminal-command-storages');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/settings/terminal/command-storage/create');
    const meta = page.getByTestId('storage-meta');
    await meta.locator('input[name="meta.HOSTS"]').waitFor();
    expect(await meta.textContent()).toMatch(/Index.*Index by date.*Username.*Password/);
    await screenshot(page, 'terminal-command-storage-form');
  });

  it('creates an endpoint and a rule that chooses it', async () => {
    await page.goto('/ui/settings/terminal/endpoint/create');
    const form = page.locator('form');
    await form.getByLabel('Name').fill('e2e-office');
    await form.getByLabel('Host').fill('gw.office.example');
    await form.getByLabel('SSH').fill('2022');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/settings/terminal?activeTab=endpoints');
    await rows().filter({ hasText: 'gw.office.example' }).waitFor();
    await screenshot(page, 'terminal-endpoints');

    await page.goto('/ui/settings/terminal/endpoint-rule/create');
    await page.locator('form').getByLabel('Name').fill('e2e-vpn');
    const endpoint = page.locator('.ant-form-item', { has: page.locator('label', { hasText: /^Endpoint$/ }) });
    await endpoint.locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: 'e2e-office' }).click();
    await screenshot(page, 'terminal-endpoint-rule-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/settings/terminal?activeTab=endpointRules');
    await rows().filter({ hasText: 'e2e-vpn' }).waitFor();
    await screenshot(page, 'terminal-endpoint-rules');
    const smart = await apiCall<{ host: string }>(ctx, 'GET', '/api/v1/terminal/endpoints/smart/?protocol=ssh');
    // The rule's default IP group is `*`: the browser (on loopback) is now told the office host.
    expect(smart.host).toBe('gw.office.example');
  });

  it('shows each instance’s load on the Monitor tab', async () => {
    await page.goto('/ui/settings/terminal?activeTab=monitor');
    const monitor = page.getByTestId('terminal-monitor');
    await monitor.getByText('Disk (data)').first().waitFor();
    expect(await monitor.textContent()).toMatch(/gatehouse.*Total.*Active sessions/);
    await screenshot(page, 'terminal-monitor');
  });

  it('runs ping from the tools page and shows its output', async () => {
    await page.goto('/ui/settings/tools');
    const form = page.getByTestId('tool-form');
    await form.locator('input[name="dest_ips"]').fill('127.0.0.1');
    await form.locator('input[name="count"]').fill('2');
    await form.getByRole('button', { name: 'Run' }).click();
    const out = page.getByTestId('tool-output');
    await expect.poll(() => out.textContent(), { timeout: 15_000 }).toContain('2 packets transmitted');
    await screenshot(page, 'settings-tools-ping');
    await form.locator('input[name="dest_ips"]').fill('127.0.0.1;id');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => out.textContent()).toContain('is not an IP address or host name');
  });
});
