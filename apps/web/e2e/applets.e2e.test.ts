import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { makeZip } from '@gatehouse/server/test-support/zip.ts';
import { pngImage } from '@gatehouse/server/test-support/images.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, screenshot } from './browser.ts';

/**
 * Settings › Remote apps in the browser: an applet zip uploaded from the page shows as a card
 * (icon, name, version, protocols) and opens its detail; a zip without a manifest is refused with
 * the server's message; an applet host created from the asset form (RemoteAppHost, deploy options)
 * is deployed and its deployment ends failed, saying why (no Windows host can run here).
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;

const applet = (items = true) =>
  makeZip([
    ...(items
      ? [
          {
            name: 'e2e-notepad/manifest.yml',
            data: 'name: e2e-notepad\ndisplay_name: E2E Notepad\nversion: 1.2\nprotocols: [rdp]\ntags: [editor]\n',
          },
        ]
      : []),
    { name: 'e2e-notepad/icon.png', data: pngImage(48, 48, [200, 60, 60]) },
    { name: 'e2e-notepad/setup.yml', data: 'type: manual\n' },
  ]);

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  const applets = await apiCall<{ id: string }[]>(ctx, 'GET', '/api/v1/terminal/applets/?name=e2e-notepad').catch(
    () => [],
  );
  for (const a of applets) await apiCall(ctx, 'DELETE', `/api/v1/terminal/applets/${a.id}/`).catch(() => undefined);
  const hosts = await apiCall<{ id: string }[]>(ctx, 'GET', '/api/v1/terminal/applet-hosts/?name=e2e-rds').catch(
    () => [],
  );
  for (const h of hosts) await apiCall(ctx, 'DELETE', `/api/v1/terminal/applet-hosts/${h.id}/`).catch(() => undefined);
  await browser.close();
});

describe('remote apps', () => {
  it('uploads an applet, shows its card and opens its detail', async () => {
    await page.goto('/ui/settings/applets');
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name: 'broken.zip', mimeType: 'application/zip', buffer: applet(false) });
    await expect
      .poll(async () => page.getByTestId('upload-error').textContent())
      .toBe('The applet package is missing the file manifest.yml.');
    await screenshot(page, 'applets-upload-refused');
    await page.getByRole('button', { name: 'OK' }).click();
    await input.setInputFiles({ name: 'e2e-notepad.zip', mimeType: 'application/zip', buffer: applet() });
    const card = page.getByTestId('applet-card-e2e-notepad');
    await card.waitFor();
    expect(await card.textContent()).toMatch(/E2E Notepad.*Version 1\.2.*rdp/);
    expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    await screenshot(page, 'applets-cards');
    await card.click();
    await page.waitForURL(/\/settings\/applets\/applets\/[0-9a-f-]{36}/);
    await page.getByTestId('applet-icon').waitFor();
    expect(await page.locator('main').textContent()).toContain('e2e-notepad');
    await screenshot(page, 'applets-detail');
    await page.getByRole('tab', { name: 'Applet hosts' }).click();
    await page.getByTestId('publications').waitFor();
    await screenshot(page, 'applets-detail-hosts');
  });

  it('creates an applet host from the asset form and shows its failed deployment', async () => {
    await page.goto('/ui/settings/applets?activeTab=hosts');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/settings/applets/hosts/create');
    const form = page.locator('form');
    await form.getByLabel('Name').fill('e2e-rds');
    await form.getByLabel('IP/Host').fill('127.0.0.1');
    await page
      .getByTestId('deploy-options')
      .locator('input[name="deploy_options.RDS_LicenseServer"]')
      .fill('lic.example');
    await screenshot(page, 'applet-host-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/settings\/applets\/hosts\/[0-9a-f-]{36}$/);
    await page.getByRole('tab', { name: 'Deployments' }).click();
    await page.getByTestId('host-deploy').click();
    const rows = page.getByTestId('deployments').locator('tr.ant-table-row');
    await expect
      .poll(async () => rows.first().textContent(), { timeout: 30_000 })
      .toMatch(/Failed.*privileged account/);
    await screenshot(page, 'applet-host-deployments');
    const saved = await apiCall<{ deploy_options: Record<string, unknown> }[]>(
      ctx,
      'GET',
      '/api/v1/terminal/applet-hosts/?name=e2e-rds',
    );
    expect(saved[0]!.deploy_options.RDS_LicenseServer).toBe('lic.example');
  });
});
