import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, pickMenuItem, screenshot, signIn, signInAdmin } from './browser.ts';
import { startSshdAsset, type SshdAsset } from './sshdAsset.ts';

/**
 * The workbench view: always offered; its home with the user card, the recent logins, the user's
 * recent sessions and the tickets waiting for them; the file manager entry's asset picker over the
 * user's SFTP assets (a real sshd).
 */
let browser: Browser;
const WB_PASSWORD = 'Wb-user-pass1!';
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

async function session(): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await newContext(browser, inject('baseURL'));
  return { ctx, page: await ctx.newPage() };
}

/** Calls the API with the page's session, as the console does. */
async function api(
  ctx: BrowserContext,
  page: Page,
  method: string,
  url: string,
  data?: unknown,
  headers: Record<string, string> = {},
) {
  const csrf = (await ctx.cookies()).find((c) => c.name === 'jms_csrftoken')?.value ?? '';
  const res = await page.request.fetch(url, { method, data, headers: { 'X-CSRFToken': csrf, ...headers } });
  if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
  return res.json() as Promise<unknown>;
}

describe('the workbench', () => {
  it('is where a plain org member lands when asking for the console, with their recent logins', async () => {
    const admin = await session();
    await admin.page.goto('/core/auth/login/');
    await signIn(admin.page, 'admin', E2E_ADMIN_PASSWORD);
    await admin.page.waitForURL('**/ui/**');
    // Only a member of Default (OrgUser there): no console or audit organisations.
    await api(
      admin.ctx,
      admin.page,
      'POST',
      '/api/v1/users/users/',
      {
        name: 'Wendy Bench',
        username: 'wb_wendy',
        email: 'wendy@e2e.test',
        password_strategy: 'custom',
        password: WB_PASSWORD,
      },
      { 'X-JMS-ORG': DEFAULT_ORG },
    );
    await admin.ctx.close();

    const { ctx, page } = await session();
    await page.goto('/core/auth/login/');
    await signIn(page, 'wb_wendy', 'not-the-password');
    await page.getByText('The username or password you entered is incorrect').waitFor();
    await signIn(page, 'wb_wendy', WB_PASSWORD);
    await page.waitForURL('**/ui/**').catch(async (e: unknown) => {
      await screenshot(page, 'workbench-signin-failed');
      throw e;
    });
    // A new user completes the first-login page; here through the same API call it makes.
    await api(ctx, page, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
    const profile = (await api(ctx, page, 'GET', '/api/v1/users/profile/')) as {
      console_orgs: unknown[];
      audit_orgs: unknown[];
    };
    expect(profile.console_orgs).toEqual([]);
    expect(profile.audit_orgs).toEqual([]);

    await page.goto('/ui/console');
    await page.waitForURL('**/ui/workbench/home');
    // The one-time view-switcher tip of a new browser would cover the screenshot.
    await page.getByTestId('view-switcher-tip').waitFor();
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.getByTestId('view-switcher-tip').waitFor({ state: 'hidden' });
    const card = page.getByTestId('workbench-user-card');
    await expect.poll(() => card.textContent()).toContain('Wendy Bench');
    expect(await card.textContent()).toContain('wb_wendy');
    const logins = page.getByTestId('workbench-recent-logins');
    const rows = logins.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('Success');
    expect(await rows.nth(0).textContent()).toContain('127.0.0.1');
    expect(await rows.nth(1).textContent()).toContain('Failed');
    expect(await page.getByTestId('view-switcher').textContent()).toContain('Workbench');
    await screenshot(page, 'workbench-home');

    await page.goto('/ui/workbench/');
    await page.waitForURL('**/ui/workbench/home');
    await ctx.close();
  });

  it('stays the chosen view (PreView) after a reload', async () => {
    const { ctx, page } = await session();
    await page.goto('/core/auth/login/');
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL('**/ui/console/**');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    await page.getByTestId('view-switcher').click();
    await pickMenuItem(page, 'Workbench');
    await page.waitForURL('**/ui/workbench/home');
    await page.getByTestId('workbench-recent-logins').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('PreView'))).toBe('workbench');

    await page.reload();
    await page.getByTestId('workbench-home').waitFor();
    await page.goto('/ui/');
    await page.waitForURL('**/ui/workbench/home');
    expect(await page.evaluate(() => localStorage.getItem('PreView'))).toBe('workbench');
    await ctx.close();
  });
  it('offers Web terminal and File manager in the menu, opened in a new tab, expanded and collapsed', async () => {
    const { ctx, page } = await session();
    await page.goto('/core/auth/login/');
    await signIn(page, 'wb_wendy', WB_PASSWORD);
    await page.waitForURL('**/ui/workbench/home');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    const menu = page.getByTestId('sidebar-menu');
    const terminal = menu.getByRole('menuitem', { name: /Web terminal/ });
    await terminal.waitFor();
    // The User role holds both permissions; the original's order: after My assets, then the job
    // centre (its own jobs are every user's).
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Home',
      'My assets',
      'Web terminal',
      'File manager',
      'Job centre',
      'Quick job',
      'Jobs',
      'Templates',
      'Executions',
    ]);
    expect(await terminal.getAttribute('title')).toBe('Opens in a new tab');
    await page.getByTestId('workbench-user-card').waitFor();
    await screenshot(page, 'workbench-menu-external');

    // A click opens the terminal page in a new tab; the console stays where it was, without a tag.
    const [tab] = await Promise.all([ctx.waitForEvent('page'), terminal.click()]);
    await tab.waitForURL('**/luna/');
    await tab.getByTestId('luna-tree').waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/workbench/home');
    expect(await page.getByTestId('tags-bar').textContent()).not.toContain('Web terminal');
    await tab.close();

    // From the keyboard: Down from My assets reaches it, Enter opens the file manager's tab.
    await menu.getByRole('menuitem', { name: 'My assets' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('File manager');
    const [files] = await Promise.all([ctx.waitForEvent('page'), page.keyboard.press('Enter')]);
    await files.waitForURL('**/koko/elfinder/sftp/');
    await files.close();

    // Typed into the address bar, the entry's own path is no console page.
    await page.goto('/ui/workbench/web-terminal');
    await page.waitForURL('**/ui/404');

    await page.goto('/ui/workbench/home');
    await page.getByTestId('sidebar-toggle').click();
    const icon = menu.getByRole('menuitem', { name: 'Web terminal (Opens in a new tab)' });
    await icon.hover();
    await page.getByRole('tooltip').filter({ hasText: 'Web terminal' }).waitFor();
    await screenshot(page, 'workbench-menu-external-collapsed');
    await ctx.close();
  });
});

describe('the workbench home cards and the file manager entry', () => {
  const stamp = Date.now().toString(36);
  const names = { user: `wb_sam_${stamp}`, sftp: `wb-sftp-${stamp}`, rdp: `wb-rdp-${stamp}` };
  let admin: { ctx: BrowserContext; page: Page };
  let sshd: SshdAsset;
  const adminApi = <T>(method: string, url: string, data?: unknown) =>
    apiCall<T>(admin.ctx, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

  beforeAll(async () => {
    admin = await session();
    await signInAdmin(admin.page, E2E_ADMIN_PASSWORD);
    sshd = await startSshdAsset(admin.ctx, names.sftp, DEFAULT_ORG);
    // Granted too, but without SSH or SFTP: the file manager cannot open it.
    const rdp = await adminApi<{ id: string }>('POST', '/api/v1/assets/hosts/', {
      name: names.rdp,
      address: '10.9.8.7',
      platform: 'Windows',
      protocols: [{ name: 'rdp', port: 3389 }],
    });
    const user = await adminApi<{ id: string }>('POST', '/api/v1/users/users/', {
      name: 'Sam Bench',
      username: names.user,
      email: `${names.user}@e2e.test`,
      password_strategy: 'custom',
      password: WB_PASSWORD,
    });
    await adminApi('POST', '/api/v1/perms/asset-permissions/', {
      name: `wb-files-${stamp}`,
      users: [user.id],
      assets: [sshd.host.id, rdp.id],
      accounts: ['@ALL'],
      actions: ['all'],
    });
  }, 120_000);
  afterAll(async () => {
    sshd?.stop();
    await admin?.ctx.close();
  });

  it('opens the file manager from the menu over the user’s SFTP assets, then lists that session on the home', async () => {
    const { ctx, page } = await session();
    await page.goto('/core/auth/login/');
    await signIn(page, names.user, WB_PASSWORD);
    await page.waitForURL('**/ui/**');
    await api(ctx, page, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
    await page.goto('/ui/workbench/home');
    // The one-time view-switcher tip of a new browser would cover the screenshots.
    await page.getByTestId('view-switcher-tip').waitFor();
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.getByTestId('view-switcher-tip').waitFor({ state: 'hidden' });
    const recent = page.getByTestId('workbench-recent-sessions');
    await recent.getByText('No sessions yet').waitFor();

    // The sidebar entry opens the file manager in a new tab: the user's assets that speak SFTP.
    const [files] = await Promise.all([
      ctx.waitForEvent('page'),
      page
        .getByTestId('sidebar-menu')
        .getByRole('menuitem', { name: /File manager/ })
        .click(),
    ]);
    await files.waitForURL('**/koko/elfinder/sftp/');
    const picker = files.getByTestId('asset-picker');
    const rows = picker.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining(names.sftp)]);
    expect(await picker.textContent()).not.toContain(names.rdp);
    expect(await rows.first().textContent()).toContain('127.0.0.1');
    await screenshot(files, 'file-manager-asset-picker');
    await files.getByLabel('Search assets').fill('no-such-asset');
    await files.getByLabel('Search assets').press('Enter');
    await picker.getByText('No asset matches the search.').waitFor();
    await files.getByLabel('Search assets').fill(names.sftp);
    await files.getByLabel('Search assets').press('Enter');

    // Its name opens the asset's account choice, then its files.
    await picker.getByRole('link', { name: names.sftp }).click();
    await files.waitForURL(`**/koko/elfinder/sftp/?asset=${sshd.host.id}`);
    await files.getByTestId('account-select').click();
    await files.locator('.ant-select-item-option').first().click();
    await files.getByRole('button', { name: 'Open' }).click();
    // The SFTP root (/tmp) of the test sshd is never empty on this machine.
    await files.locator('tbody tr.ant-table-row').first().waitFor();
    await expect.poll(() => files.locator('.ant-card-head').textContent()).toContain(names.sftp);
    await screenshot(files, 'file-manager-from-picker');
    // Back to the asset list.
    await files.getByRole('link', { name: 'All assets' }).click();
    await files.getByTestId('asset-picker').waitFor();
    await files.close();

    // The home lists that SFTP session; its button opens the file manager on the same asset.
    await page.reload();
    const row = recent.locator('tbody tr.ant-table-row').first();
    await expect.poll(() => row.textContent()).toContain(names.sftp);
    expect(await row.textContent()).toContain('sftp');
    const [again] = await Promise.all([
      ctx.waitForEvent('page'),
      row.getByRole('button', { name: 'Open files' }).click(),
    ]);
    await again.waitForURL(`**/koko/elfinder/sftp/?asset=${sshd.host.id}`);
    await again.close();
    // A plain user holds tickets.view_ticket: the card is there, with nothing to decide.
    await page.getByTestId('workbench-assigned-tickets').getByText('Nothing waits for your decision').waitFor();
    await screenshot(page, 'workbench-home-cards-user');

    // The ticket the user asks for waits for the admin's decision, on the admin's home.
    const title = `Files on ${names.sftp}`;
    const ticket = await apiCall<{ id: string }>(ctx, 'POST', '/api/v1/tickets/apply-asset-tickets/open/', {
      title,
      apply_assets: [sshd.host.id],
    });
    try {
      await admin.page.goto('/ui/workbench/home');
      const assigned = admin.page.getByTestId('workbench-assigned-tickets');
      await assigned.getByRole('link', { name: title }).waitFor();
      await screenshot(admin.page, 'workbench-home-cards-admin');
      await assigned.getByRole('link', { name: title }).click();
      await admin.page.waitForURL(`**/ui/tickets/tickets/request-host-perm/${ticket.id}`);
    } finally {
      await apiCall(ctx, 'PUT', `/api/v1/tickets/apply-asset-tickets/${ticket.id}/close/`, {});
    }
    await ctx.close();
  }, 120_000);
});
