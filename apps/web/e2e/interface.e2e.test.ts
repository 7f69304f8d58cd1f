import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pngImage } from '@gatehouse/server/test-support/images.ts';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './browser.ts';

/**
 * Settings › Interface on a server of its own (it changes every visitor's login page): title,
 * theme and images saved from the page, the console's sidebar and the login page following at
 * once, a logo of the wrong size refused with the server's message, and the defaults restored.
 */
let server: RunningServer;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let tmp: string;

const file = (name: string, w: number, h: number, rgb: [number, number, number]) => {
  const p = path.join(tmp, `${name}.png`);
  fs.writeFileSync(p, pngImage(w, h, rgb));
  return p;
};
const choose = (name: string, p: string) =>
  page.getByTestId(`interface-${name}`).locator('input[type=file]').setInputFiles(p);

beforeAll(async () => {
  server = await startServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-interface-e2e-'));
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
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('interface settings', () => {
  it('refuses a logo of the wrong size with the server’s message', async () => {
    await page.goto('/ui/settings/interface');
    await page.getByTestId('interface-form').waitFor();
    await choose('logo_index', file('wrong', 200, 55, [200, 40, 40]));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .getByTestId('interface-logo_index')
      .getByText('logo_index: the image must be 185×55 pixels; this one is 200×55.')
      .waitFor();
    await screenshot(page, 'interface-wrong-size');
  });

  it('saves title, theme and images; the console and the login page follow at once', async () => {
    await page.reload();
    await page.getByTestId('interface-form').waitFor();
    await page.getByLabel('Login title').fill('Acme Bastion');
    await page.getByTestId('interface-form').locator('.ant-select').first().click();
    await page.locator('.ant-select-item-option', { hasText: 'Violet' }).click();
    await choose('logo_index', file('index', 185, 55, [123, 85, 200]));
    await choose('logo_logout', file('small', 82, 82, [240, 160, 30]));
    await choose('favicon', file('fav', 16, 16, [240, 160, 30]));
    await choose('login_image', file('login', 492, 472, [60, 90, 160]));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Saved: the interface has changed.').waitFor();
    // The sidebar's logo and the page's icon are the uploaded ones, without a reload.
    await expect
      .poll(() => page.locator('aside img').first().getAttribute('src'))
      .toMatch(/\/api\/v1\/xpack\/interface\/images\/logo_index\//);
    await expect.poll(() => page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/\/images\/favicon\//);
    await screenshot(page, 'interface-saved');

    const anonymous = await (await newContext(browser, server.url)).newPage();
    await anonymous.goto('/core/auth/login/');
    await anonymous.getByText('Acme Bastion').waitFor();
    await expect
      .poll(() => anonymous.locator('.gh-login-image').getAttribute('src'))
      .toMatch(/\/images\/login_image\//);
    expect(await anonymous.locator('.gh-brand img').getAttribute('src')).toMatch(/\/images\/logo_logout\//);
    expect(await anonymous.evaluate(() => document.documentElement.style.getPropertyValue('--gh-primary'))).toBe(
      '#7b55c8',
    );
    await screenshot(anonymous, 'interface-login-page');
    await anonymous.close();
  });

  it('restores the built-in interface', async () => {
    await page.getByRole('button', { name: 'Restore defaults' }).click();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('The built-in interface is back.').waitFor();
    await expect.poll(() => page.locator('aside img').first().getAttribute('src')).toBe('/ui/logo-text.svg');
    expect(await page.getByLabel('Login title').inputValue()).toBe('Gatehouse');
  });
});
