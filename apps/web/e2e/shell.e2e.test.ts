import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { launchBrowser, newContext, pickMenuItem, screenshot, signIn } from './browser.ts';

/** Issue 4, the application shell, as a person uses it: sidebar, views, tags, languages, help. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

interface Session {
  ctx: BrowserContext;
  page: Page;
}

/** A signed-in admin on the dashboard; the one-time view-switcher tip is already seen unless asked. */
async function signedIn(opts: { width?: number; tip?: boolean } = {}): Promise<Session> {
  const ctx = await newContext(browser, inject('baseURL'), { width: opts.width ?? 1400, height: 900 });
  if (!opts.tip) await ctx.addInitScript(() => localStorage.setItem('viewSwitcherTip', '1'));
  const page = await ctx.newPage();
  await page.goto('/core/auth/login/');
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await page.waitForURL('**/ui/console/dashboard');
  await page.getByTestId('dashboard-welcome').waitFor();
  return { ctx, page };
}

const path = (page: Page) => new URL(page.url()).pathname;
const sidebar = (page: Page) => page.getByTestId('sidebar');
const tags = (page: Page) => page.getByTestId('tag');
const menuText = (page: Page) => page.getByTestId('sidebar-menu').innerText();

/** An unknown address lands on the 404 page, which joins the dashboard in the tags bar. */
async function openNotFound(page: Page): Promise<void> {
  await page.goto('/ui/nowhere');
  await page.waitForURL('**/ui/404');
  await page.getByTestId('not-found').waitFor();
  await expect.poll(() => tags(page).allInnerTexts()).toEqual(['Dashboard', 'Page not found']);
}

async function tagMenu(page: Page, tagPath: string, action: string): Promise<void> {
  await page.locator(`[data-testid="tag"][data-path="${tagPath}"]`).click({ button: 'right' });
  await pickMenuItem(page, action, true);
}

describe('the sidebar', () => {
  it('collapses to 54 px, stays collapsed after a reload, and opens again to 200 px', async () => {
    const { ctx, page } = await signedIn();
    expect(await sidebar(page).getAttribute('data-state')).toBe('open');
    expect((await sidebar(page).boundingBox())!.width).toBe(200);
    await screenshot(page, 'shell-1400-sidebar-open');

    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(async () => (await sidebar(page).boundingBox())!.width).toBe(54);
    expect((await ctx.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
    await page.reload();
    await page.getByTestId('dashboard-welcome').waitFor();
    expect(await sidebar(page).getAttribute('data-state')).toBe('closed');
    await expect.poll(async () => (await page.getByTestId('footer').boundingBox())!.x).toBe(54);
    await screenshot(page, 'shell-1400-sidebar-closed');

    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(async () => (await sidebar(page).boundingBox())!.width).toBe(200);
    await expect.poll(async () => (await page.getByTestId('footer').boundingBox())!.x).toBe(200);
    expect((await ctx.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('1');
    await ctx.close();
  });

  it('is closed at 800 px wide, opens over the page, and closes from the mask', async () => {
    const { ctx, page } = await signedIn({ width: 800 });
    expect(await sidebar(page).getAttribute('data-state')).toBe('closed');
    await expect.poll(async () => (await sidebar(page).boundingBox())!.x + 200).toBeLessThanOrEqual(0);
    expect((await page.getByTestId('footer').boundingBox())!.x).toBe(0);
    await screenshot(page, 'shell-800-sidebar-closed');

    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(async () => (await sidebar(page).boundingBox())!.x).toBe(0);
    expect(await menuText(page)).toContain('Dashboard');
    await screenshot(page, 'shell-800-sidebar-open');
    await page.getByTestId('sidebar-mask').click({ position: { x: 700, y: 400 } });
    expect(await sidebar(page).getAttribute('data-state')).toBe('closed');
    // Closing it on a narrow screen is not a preference to keep.
    expect((await ctx.cookies()).find((c) => c.name === 'sidebarStatus')).toBeUndefined();
    await ctx.close();
  });
});

describe('views', () => {
  it('keep the chosen view in PreView across reloads, and send the root to it', async () => {
    const { ctx, page } = await signedIn({ tip: true });
    const tip = page.getByTestId('view-switcher-tip');
    await tip.waitFor();
    await screenshot(page, 'shell-1400-view-switcher-tip');
    await page.getByRole('button', { name: 'Got it' }).click();
    await tip.waitFor({ state: 'hidden' });

    await page.getByTestId('view-switcher').click();
    await pickMenuItem(page, 'Console');
    await page.waitForURL('**/ui/console/dashboard');
    await page.getByTestId('dashboard-welcome').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('PreView'))).toBe('console');

    await page.reload();
    await page.getByTestId('dashboard-welcome').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('PreView'))).toBe('console');
    expect(await tip.count()).toBe(0);
    await page.goto('/ui/');
    await page.waitForURL('**/ui/console/dashboard');

    // Every view is built now: the tickets view opens where it is asked for.
    await page.goto('/ui/tickets/my-tickets');
    await page.getByTestId('tickets-my').waitFor();
    expect(path(page)).toBe('/ui/tickets/my-tickets');
    await ctx.close();
  });
});

describe('the tags bar', () => {
  it('refreshes a page through the redirect path', async () => {
    const { ctx, page } = await signedIn();
    await openNotFound(page);
    await page.getByTestId('not-found').evaluate((el) => el.setAttribute('data-stale', 'yes'));
    await screenshot(page, 'shell-1400-tags');
    await tagMenu(page, '/404', 'Refresh');
    await expect.poll(() => page.locator('[data-testid="not-found"]:not([data-stale])').count()).toBe(1);
    expect(path(page)).toBe('/ui/404');
    await ctx.close();
  });

  it('closes the active tag and moves to the last remaining one; affix tags have no close', async () => {
    const { ctx, page } = await signedIn();
    await openNotFound(page);
    await page.locator('[data-testid="tag"][data-path="/console/dashboard"]').click({ button: 'right' });
    // The tags menu's code loads at the first right-click (lib/LazyDropdown.tsx): it opens once there.
    await expect
      .poll(() => page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem').allInnerTexts())
      .toEqual(['Refresh', 'Close others', 'Close all']);
    await page.keyboard.press('Escape');
    await tagMenu(page, '/404', 'Close');
    await page.waitForURL('**/ui/console/dashboard');
    await expect.poll(() => tags(page).allInnerTexts()).toEqual(['Dashboard']);
    await ctx.close();
  });

  it('closes the other tags, and all of them but the affix ones', async () => {
    const { ctx, page } = await signedIn();
    await openNotFound(page);
    await tagMenu(page, '/console/dashboard', 'Close others');
    await page.waitForURL('**/ui/console/dashboard');
    await expect.poll(() => tags(page).allInnerTexts()).toEqual(['Dashboard']);

    await openNotFound(page);
    await tagMenu(page, '/404', 'Close all');
    await page.waitForURL('**/ui/console/dashboard');
    await expect.poll(() => tags(page).allInnerTexts()).toEqual(['Dashboard']);
    await ctx.close();
  });
});

/**
 * Picks a language from the account menu and waits for the page to reload in it. On a busy machine
 * the menu opened as the page settled once took no click (no reload followed): then it is tried
 * again, only when no reload came.
 */
async function switchLanguage(page: Page, label: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const reloaded = page.waitForEvent('load', { timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    await page.getByTestId('account-menu').click();
    await pickMenuItem(page, label);
    if (await reloaded) return;
    if (attempt === 3) throw new Error(`choosing ${label} in the account menu did not reload the page`);
  }
}

describe('languages', () => {
  it('switch the menu and tags to Chinese and Japanese from the account menu, kept in django_language', async () => {
    const { ctx, page } = await signedIn();
    expect(await menuText(page)).toContain('Dashboard');
    await switchLanguage(page, '中文');
    await expect.poll(() => menuText(page)).toContain('仪表盘');
    expect(await tags(page).allInnerTexts()).toEqual(['仪表盘']);
    expect((await ctx.cookies()).find((c) => c.name === 'django_language')?.value).toBe('zh-hans');
    // The page reloads, so what the server words follows too (the role names of the welcome card).
    await expect.poll(() => page.getByTestId('dashboard-welcome').textContent()).toContain('系统管理员');
    await screenshot(page, 'shell-1400-zh');

    await switchLanguage(page, '日本語');
    await expect.poll(() => menuText(page)).toContain('ダッシュボード');
    expect((await ctx.cookies()).find((c) => c.name === 'django_language')?.value).toBe('ja');
    await page.reload();
    await page.getByTestId('dashboard-welcome').waitFor();
    expect(await menuText(page)).toContain('ダッシュボード');
    expect(await page.title()).toBe('ダッシュボード - Gatehouse');
    await ctx.close();
  });
});

describe('help', () => {
  it('shows the product and version v3.7.1 in About', async () => {
    const { ctx, page } = await signedIn();
    await page.getByTestId('help-menu').click();
    await pickMenuItem(page, 'About');
    const about = page.getByTestId('about-dialog');
    await about.waitFor();
    expect(await about.innerText()).toContain('Gatehouse');
    expect(await about.innerText()).toContain('v3.7.1');
    expect(await about.getByRole('link', { name: 'Download centre' }).getAttribute('href')).toBe('/core/download/');
    expect(await about.getByRole('link', { name: 'Source code' }).getAttribute('target')).toBe('_blank');
    await page.waitForTimeout(400); // let the dialog finish opening for the picture
    await screenshot(page, 'shell-1400-about');
    await ctx.close();
  });
});
