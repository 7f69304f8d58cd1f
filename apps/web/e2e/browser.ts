import fs from 'node:fs';
import { expect } from 'vitest';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with the flags this machine needs (no network beyond loopback). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The browsers this test file launched, for the pictures of a failed test (failureSnapshot.ts). */
export const launched = new Set<Browser>();

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  launched.add(browser);
  browser.on('disconnected', () => launched.delete(browser));
  return browser;
}

export async function newContext(
  browser: Browser,
  baseURL: string,
  opts: { width?: number; height?: number; locale?: string } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    viewport: { width: opts.width ?? 1400, height: opts.height ?? 900 },
    locale: opts.locale ?? 'en-US',
  });
}

export const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/screenshots');

/** Saves a screenshot for people to look at (.tmp/screenshots); tests never compare pixels. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

/** Signs in through the login page. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs the admin in through the login page and dismisses the shell's one-time view-switcher tip. */
export async function signInAdmin(page: Page, password: string): Promise<void> {
  await page.goto('/core/auth/login/');
  await signIn(page, 'admin', password);
  await page.waitForURL('**/ui/**');
  await page
    .getByRole('button', { name: 'Got it' })
    .click({ timeout: 3000 })
    .catch(() => undefined);
}

/**
 * Calls the API with a browser context's session and CSRF token (the way the console does), for
 * test set-up and for reading back what the page saved. A failed call throws with its body.
 */
export async function apiCall<T>(
  c: BrowserContext,
  method: string,
  url: string,
  data?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const csrf = (await c.cookies()).find((k) => k.name === 'jms_csrftoken')?.value ?? '';
  const res = await c.request.fetch(url, {
    method,
    data: data as Record<string, unknown>,
    headers: { 'X-CSRFToken': csrf, ...headers },
  });
  if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
  return (res.status() === 204 ? undefined : await res.json()) as T;
}

/**
 * A new user, made through the API with the admin's context (in `org`), signed in in a browser
 * context of its own (1440x860) and past the first-login page.
 */
export async function newUserContext(
  browser: Browser,
  baseURL: string,
  admin: BrowserContext,
  org: string,
  user: { username: string; name: string; password: string },
): Promise<{ context: BrowserContext; id: string }> {
  const u = await apiCall<{ id: string }>(
    admin,
    'POST',
    '/api/v1/users/users/',
    { ...user, email: `${user.username}@e2e.test`, password_strategy: 'custom' },
    { 'X-JMS-ORG': org },
  );
  const context = await newContext(browser, baseURL, { width: 1440, height: 860 });
  const page = await context.newPage();
  await page.goto('/core/auth/login/');
  await signIn(page, user.username, user.password);
  await page.waitForURL('**/ui/**');
  await apiCall(context, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
  await page.close();
  return { context, id: u.id };
}

/** A new browser with one page where the admin is signed in. */
export async function openAsAdmin(
  baseURL: string,
  password: string,
): Promise<{ browser: Browser; ctx: BrowserContext; page: Page }> {
  const browser = await launchBrowser();
  const ctx = await newContext(browser, baseURL);
  const page = await ctx.newPage();
  await signInAdmin(page, password);
  return { browser, ctx, page };
}

/**
 * Picks an entry of a dropdown menu once the menu has finished opening: on a busy machine a click
 * during the open animation can land on the entry next to the one asked for.
 */
export async function pickMenuItem(page: Page, name: string, exact = false): Promise<void> {
  // A menu closing (its animation still running) may still show the same item: take the one drawn last.
  const item = page.getByRole('menuitem', { name, exact }).filter({ visible: true }).last();
  await item.waitFor();
  await item.evaluate((el) =>
    Promise.all((el.closest('.ant-dropdown') ?? el).getAnimations({ subtree: true }).map((a) => a.finished)),
  );
  await item.click();
}

/**
 * Clicks an option of a select's dropdown once the dropdown has finished opening: a click during
 * its slide-in can land beside the option on a busy machine, and nothing is chosen.
 */
export async function pickOption(option: Locator): Promise<void> {
  await option.waitFor();
  await option.evaluate((el) =>
    Promise.all((el.closest('.ant-select-dropdown') ?? el).getAnimations({ subtree: true }).map((a) => a.finished)),
  );
  await option.click();
}

/**
 * Types `term` into a select whose options come from the server and picks `option`, until
 * `chosen()` says the choice shows. The search goes out 300 ms after typing and its options replace
 * the first page's (RemoteSelect; a search asked before answers at once from the cache), so a click
 * as the list is redrawn can choose nothing on a busy machine: then it is picked again (only then,
 * as a second click on a chosen option would take it back).
 */
export async function searchAndPick(
  input: Locator,
  term: string,
  option: Locator,
  chosen: () => Promise<boolean>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await input.click();
    await input.fill(term);
    await pickOption(option);
    try {
      await expect.poll(chosen, { timeout: 5_000 }).toBe(true);
      return;
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}
