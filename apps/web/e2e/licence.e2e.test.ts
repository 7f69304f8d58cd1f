import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './browser.ts';

/**
 * Issue 5, the licence in the console, on a server of its own (an expired licence changes what
 * every page shows): the settings licence page, importing an expired licence issued with the CLI,
 * and a tampered licence file refused with the server's message.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
let server: RunningServer;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let tmp: string;

/** `gatehouse licence issue` with this install's own operator key (trusted by the install). */
function issue(expires: string): string {
  const r = spawnSync(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    [
      path.join(ROOT, 'apps/server/src/main.ts'),
      'licence',
      'issue',
      '--key',
      path.join(server.dataDir, 'licence', 'operator.key'),
      '--corporation',
      'Expired Corp',
      '--expires',
      expires,
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`licence issue failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** The same licence with its payload changed (a later expiry): the signature no longer matches. */
function tamper(licence: string): string {
  const [prefix, payload, signature] = licence.split('.') as [string, string, string];
  const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  data.expired = '2099-12-31';
  return [prefix, Buffer.from(JSON.stringify(data)).toString('base64url'), signature].join('.');
}

async function upload(name: string, content: string): Promise<void> {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  await page.getByTestId('license-page').locator('input[type=file]').setInputFiles(file);
}

beforeAll(async () => {
  server = await startServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-licence-e2e-'));
  browser = await launchBrowser();
  ctx = await newContext(browser, server.url);
  page = await ctx.newPage();
  await page.goto('/core/auth/login/');
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL('**/ui/**');
  await page
    .getByRole('button', { name: 'Got it' })
    .click({ timeout: 3000 })
    .catch(() => undefined);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const state = () => page.getByTestId('license-state');
/** Whether the console counts the licence valid (the tickets view and licensed routes follow it). */
const licenceValid = async () =>
  ((await (await ctx.request.get('/api/v1/settings/public/')).json()) as { XPACK_LICENSE_IS_VALID: boolean })
    .XPACK_LICENSE_IS_VALID;
/** The tickets entry of the navbar (shown once the tickets view is built, only with a valid licence). */
const tickets = () => page.getByRole('link', { name: 'Tickets' });

describe('licence', () => {
  it('shows the licence of the install in settings › license, with the licensed pages on offer', async () => {
    await page.goto('/ui/settings/license');
    await expect.poll(() => state().textContent()).toBe('Valid');
    expect(await licenceValid()).toBe(true);
    await screenshot(page, 'licence-page');
    await page.goto('/ui/settings/orgs/');
    await page.locator('[data-testid="resource-list"]').waitFor();
  });

  it("refuses a tampered licence file with the server's message and keeps the licence", async () => {
    await page.goto('/ui/settings/license');
    await state().waitFor();
    await upload('tampered.lic', tamper(issue('2030-01-01')));
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('The licence signature is not valid');
    await upload('not-a-licence.txt', 'hello');
    await expect
      .poll(() => page.locator('.ant-message').textContent())
      .toContain('This file is not a Gatehouse licence.');
    await page.reload();
    await expect.poll(() => state().textContent()).toBe('Valid');
  });

  it('imports an expired licence: the expired banner shows, tickets and licensed routes are gone', async () => {
    await page.goto('/ui/settings/license');
    await state().waitFor();
    await upload('expired.lic', issue('2020-01-31'));
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('License imported');
    // The page reloads into the licence it now has.
    await page.waitForEvent('load');
    await expect.poll(() => state().textContent(), { timeout: 10_000 }).toBe('Expired or invalid');
    await expect.poll(() => page.getByTestId('banner-license-expired').count()).toBe(1);
    expect(await page.getByTestId('license-page').textContent()).toContain('2020-01-31');
    expect(await licenceValid()).toBe(false);
    expect(await tickets().count()).toBe(0);
    await screenshot(page, 'licence-expired');

    // Licensed pages are not found any more; the roles menu entry is gone from the console.
    await page.goto('/ui/settings/orgs/');
    await expect
      .poll(() => page.locator('body').textContent())
      .toContain('The page you asked for does not exist or has moved.');
    await page.goto('/ui/console/users/users/');
    await page.locator('[data-testid="resource-list"]').waitFor();
    expect(await page.getByTestId('sidebar').textContent()).not.toContain('Roles');
  });
});
