import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with the flags this machine needs (no network beyond loopback). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

export async function newContext(browser: Browser, baseURL: string, opts: { width?: number; height?: number; locale?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: { width: opts.width ?? 1400, height: opts.height ?? 900 }, locale: opts.locale ?? 'en-US' });
}

const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/screenshots');

/** Saves a screenshot for people to look at (.tmp/screenshots); tests never compare pixels. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

/** Signs in through the login page. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
