import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signIn, signInAdmin } from './browser.ts';

/**
 * Tickets in the browser (issue 19): a user asks for a host, an approver approves it in another
 * browser, and the host is the user's (My assets; connecting is the web terminal's page, built
 * elsewhere); a login rule with review holds a sign-in on "Waiting for approval" until approved.
 */
let browser: Browser;
let admin: { ctx: BrowserContext; page: Page };
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const PASSWORD = 'Tk-user-pass1!';
type Row = Record<string, unknown> & { id: string };

beforeAll(async () => {
  browser = await launchBrowser();
  const ctx = await newContext(browser, inject('baseURL'));
  const page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
  admin = { ctx, page };
});
afterAll(async () => {
  await browser.close();
});

async function makeUser(username: string): Promise<Row> {
  return apiCall<Row>(
    admin.ctx,
    'POST',
    '/api/v1/users/users/',
    { name: username, username, email: `${username}@e2e.test`, password_strategy: 'custom', password: PASSWORD },
    { 'X-JMS-ORG': DEFAULT_ORG },
  );
}

/** The state and status tags of the list row titled `title`: value, text and colour class. */
async function rowTags(page: Page, title: string) {
  const row = page.locator('tr.ant-table-row', { hasText: title });
  const tag = async (testId: string) => {
    const t = row.getByTestId(testId);
    await t.waitFor();
    return {
      value: await t.getAttribute('data-value'),
      text: await t.textContent(),
      cls: await t.getAttribute('class'),
    };
  };
  return { state: await tag('ticket-state-tag'), status: await tag('ticket-status-tag') };
}

/** The header texts of the ticket list. */
const headers = (page: Page) => page.locator('[data-testid="resource-list"] thead th').allTextContents();

async function userSession(username: string, locale = 'en-US'): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await newContext(browser, inject('baseURL'), { locale });
  const page = await ctx.newPage();
  await page.goto('/core/auth/login/');
  await signIn(page, username, PASSWORD);
  await page.waitForURL('**/ui/**');
  await apiCall(ctx, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
  return { ctx, page };
}

describe('tickets', () => {
  it('lets a user ask for a host that an approver grants from another browser', async () => {
    await makeUser('tk_ursula');
    await apiCall(
      admin.ctx,
      'POST',
      '/api/v1/assets/hosts/',
      { name: 'tk-web', address: '10.9.0.1', platform: 'Linux', protocols: [{ name: 'ssh', port: 22 }], nodes: [] },
      { 'X-JMS-ORG': DEFAULT_ORG },
    );
    const user = await userSession('tk_ursula');
    const { page } = user;
    await page.goto('/ui/tickets/my-tickets');
    await page.getByTestId('request-assets').click();
    await page.waitForURL('**/tickets/tickets/request-host-perm/create');
    await page.getByLabel('Title').fill('Web server for the release');
    await page.locator('#apply_assets').click();
    await page.locator('#apply_assets').fill('tk-web');
    await page.locator('.ant-select-item-option', { hasText: 'tk-web' }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'tickets-request-form-en');
    await page.getByTestId('request-submit').click();
    await page.waitForURL(/\/tickets\/tickets\/request-host-perm\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('ticket-state').textContent()).toBe('Open');
    await screenshot(page, 'tickets-detail-open-en');

    // The approver, in another browser: the badge counts the ticket, the list shows it.
    await admin.page.goto('/ui/tickets/assigned-tickets');
    await admin.page.getByTestId('ticket-badge').waitFor({ timeout: 20_000 });
    await admin.page.getByText('Web server for the release').first().waitFor();
    // The reference's default columns, state and status as coloured tags.
    expect((await headers(admin.page)).filter(Boolean)).toEqual(expect.arrayContaining(['Title', 'Action', 'Status']));
    const open = await rowTags(admin.page, 'Web server for the release');
    expect(open.state).toMatchObject({ value: 'pending', text: 'Open' });
    expect(open.state.cls).toContain('ant-tag-warning');
    expect(open.status).toMatchObject({ value: 'open', text: 'Open' });
    expect(open.status.cls).toContain('ant-tag-processing');
    await screenshot(admin.page, 'tickets-assigned-en');
    await admin.page.getByText('Web server for the release').first().click();
    await admin.page.getByTestId('ticket-approve').click();
    await expect.poll(() => admin.page.getByTestId('ticket-state').textContent(), { timeout: 20_000 }).toBe('Approved');
    await screenshot(admin.page, 'tickets-detail-approved-en');

    // The user now has the host.
    const mine = await apiCall<Row[]>(user.ctx, 'GET', '/api/v1/perms/users/self/assets/');
    expect(mine.map((a) => a.name)).toEqual(['tk-web']);
    await page.goto('/ui/workbench/assets');
    await page.getByTestId('my-assets-page').getByText('tk-web').waitFor();
    await page.goto('/ui/tickets/my-tickets');
    await page.getByText('Web server for the release').waitFor();
    // The shell's one-time view tip covers the page title on a new user's first pages.
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    const done = await rowTags(page, 'Web server for the release');
    expect(done.state).toMatchObject({ value: 'approved', text: 'Approved' });
    expect(done.state.cls).toContain('ant-tag-success');
    expect(done.status).toMatchObject({ value: 'closed', text: 'Finished' });
    expect(done.status.cls).toContain('ant-tag-default');
    await screenshot(page, 'tickets-my-en');
    await user.ctx.close();
  });

  it('shows the ticket pages in Chinese', async () => {
    const ctx = await newContext(browser, inject('baseURL'));
    const page = await ctx.newPage();
    await signInAdmin(page, E2E_ADMIN_PASSWORD);
    // The console reads its language from the cookie the language switch writes.
    await ctx.addCookies([{ name: 'django_language', value: 'zh-hans', url: inject('baseURL') }]);
    await page.goto('/ui/tickets/assigned-tickets');
    await page.getByText('Web server for the release').first().waitFor();
    // Approved by now: the tags in Chinese (the server labels the choices in the reader's language).
    const zh = await rowTags(page, 'Web server for the release');
    expect([zh.state.text, zh.status.text]).toEqual(['已同意', '已完成']);
    expect((await headers(page)).filter(Boolean)).toEqual(expect.arrayContaining(['动作', '状态']));
    await screenshot(page, 'tickets-assigned-zh');
    await page.getByText('Web server for the release').first().click();
    await page.getByTestId('ticket-detail').waitFor();
    await expect.poll(() => page.getByTestId('ticket-state').textContent()).toBe('已同意');
    await screenshot(page, 'tickets-detail-zh');
    await page.goto('/ui/tickets/tickets/request-host-perm/create');
    await page.getByTestId('request-assets-form').waitFor();
    await screenshot(page, 'tickets-request-form-zh');
    // And in Japanese.
    await ctx.addCookies([{ name: 'django_language', value: 'ja', url: inject('baseURL') }]);
    await page.goto('/ui/tickets/assigned-tickets');
    await page.getByText('Web server for the release').first().waitFor();
    const ja = await rowTags(page, 'Web server for the release');
    expect([ja.state.text, ja.status.text]).toEqual(['承認済み', '完了']);
    expect((await headers(page)).filter(Boolean)).toEqual(expect.arrayContaining(['アクション', 'ステータス']));
    await screenshot(page, 'tickets-assigned-ja');
    await ctx.close();
  });

  it('approves two requests at once from the assigned list, edits the flow to two levels and creates one', async () => {
    const user = await userSession('tk_ursula');
    const host = (
      await apiCall<Row[]>(user.ctx, 'GET', '/api/v1/tickets/apply-asset-tickets/assets/?search=tk-web')
    )[0]!;
    for (const title of ['batch one', 'batch two'])
      await apiCall(user.ctx, 'POST', '/api/v1/tickets/apply-asset-tickets/open/', { title, apply_assets: [host.id] });
    const page = admin.page;
    await page.goto('/ui/tickets/assigned-tickets');
    for (const title of ['batch one', 'batch two'])
      await page.locator('tr', { hasText: title }).locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Batch approval' }).click();
    await page.locator('.ant-modal').getByText('batch two').waitFor();
    await screenshot(page, 'tickets-batch-dialog-en');
    await page.locator('.ant-modal').getByRole('button', { name: 'Submit' }).click();
    await page.locator('.ant-modal').waitFor({ state: 'hidden' });
    const mine = await apiCall<Row[]>(user.ctx, 'GET', '/api/v1/tickets/tickets/?search=batch');
    expect(mine.map((t) => (t.state as { value: string }).value)).toEqual(['approved', 'approved']);
    await user.ctx.close();

    await page.goto('/ui/tickets/flow/');
    await page.getByTestId('ticket-flows').getByText('Apply for asset').waitFor();
    await screenshot(page, 'tickets-flows-en');
    await page.locator('tr', { hasText: 'Apply for asset' }).getByText('Edit').click();
    await page.getByTestId('ticket-flow-form').waitFor();
    await page.getByLabel('2').check();
    await page.getByText('Level 2').waitFor();
    await screenshot(page, 'tickets-flow-edit-en');
    await page.getByTestId('flow-submit').click();
    await page.waitForURL('**/tickets/flow/');
    const flows = await apiCall<Row[]>(admin.ctx, 'GET', '/api/v1/tickets/flows/?type=apply_asset');
    expect(flows[0]).toMatchObject({ approval_level: 2, org_id: DEFAULT_ORG });

    // A flow of its own for a type the organisation takes from the global one so far.
    await page.getByRole('button', { name: 'Create ticket flow' }).click();
    await page.waitForURL('**/tickets/flow/create');
    await page.getByTestId('ticket-flow-form').locator('.ant-select').first().click();
    await page.locator('.ant-select-item-option', { hasText: 'General' }).click();
    await page.getByTestId('flow-submit').click();
    await page.waitForURL('**/tickets/flow/');
    const general = await apiCall<Row[]>(admin.ctx, 'GET', '/api/v1/tickets/flows/?type=general');
    expect(general.map((f) => f.org_id)).toEqual([DEFAULT_ORG]);
  });

  it('holds a sign-in under a login rule with review until it is approved', async () => {
    const lars = await makeUser('tk_lars');
    const me = await apiCall<Row>(admin.ctx, 'GET', '/api/v1/users/profile/');
    await apiCall(admin.ctx, 'POST', '/api/v1/acls/login-acls/', {
      name: 'review lars',
      action: 'review',
      priority: 1,
      users: { type: 'ids', ids: [lars.id] },
      reviewers: [me.id],
    });
    const ctx = await newContext(browser, inject('baseURL'));
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await signIn(page, 'tk_lars', PASSWORD);
    await page.getByTestId('login-confirm-step').waitFor();
    await page.getByText('Waiting for approval').waitFor();
    await screenshot(page, 'tickets-login-waiting-en');
    // Still on the login page a few polls later.
    await page.waitForTimeout(4000);
    expect(page.url()).toContain('/core/auth/login/');
    const open = await apiCall<Row[]>(admin.ctx, 'GET', '/api/v1/tickets/apply-login-tickets/?status=open');
    expect(open).toHaveLength(1);
    await apiCall(admin.ctx, 'PUT', `/api/v1/tickets/apply-login-tickets/${open[0]!.id}/approve/`, {});
    await page.waitForURL('**/ui/**', { timeout: 30_000 });
    await ctx.close();
  });
});
