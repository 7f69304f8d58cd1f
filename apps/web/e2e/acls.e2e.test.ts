import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, newContext, openAsAdmin, screenshot, signIn } from './browser.ts';

/**
 * Issue 16 as an administrator uses it: a login rule made on its page refuses a user's sign-in
 * from this machine (with the message and a login-log entry), and a command group's test box
 * says whether a command is caught.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const PASSWORD = 'Acl-e2e-pass1';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);
const form = () => page.getByTestId('resource-form');
const item = (label: string) =>
  form()
    .locator('.ant-form-item')
    .filter({ has: page.getByText(label, { exact: true }) });

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
  await api('POST', '/api/v1/users/users/', {
    name: 'ACL e2e',
    username: 'acl_e2e',
    email: 'acl_e2e@e2e.test',
    password_strategy: 'custom',
    password: PASSWORD,
    need_update_password: false,
  });
});
afterAll(async () => {
  const rules = await api<Row[]>('GET', '/api/v1/acls/login-acls/?name=e2e no localhost').catch(() => []);
  for (const r of rules) await api('DELETE', `/api/v1/acls/login-acls/${r.id}/`);
  await browser.close();
});

describe('login ACLs in the console', () => {
  it('makes a rule on its page that refuses the user from 127.0.0.1, with the message and a login-log entry', async () => {
    await page.goto('/ui/console/perms/login-acls/create');
    await form().waitFor();
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    await item('Name').locator('input').fill('e2e no localhost');
    await item('Priority').locator('input').fill('10');
    // The user by attribute: username equals acl_e2e.
    const users = page.getByTestId('selector-field').first();
    await users.getByText('By attributes').click();
    await users.getByRole('combobox', { name: 'Attribute' }).click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('username').click();
    await users.getByRole('textbox', { name: 'Value' }).fill('acl_e2e');
    // A bad IP group is refused with a message that says why.
    await page.getByTestId('ip-group').fill('127.0.0.1\nnot-an-ip');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('IP address invalid: "not-an-ip"', { exact: false }).waitFor();
    await page.getByTestId('ip-group').fill('127.0.0.1\n::1');
    // The weekly grid: clear it, then drag over the whole week again (Sunday 00h to Saturday 23h).
    await page.getByRole('button', { name: 'Clear' }).click();
    expect(await page.getByTestId('week-grid').textContent()).toContain('never');
    const from = await page.getByTestId('cell-0-0').boundingBox();
    await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
    await page.mouse.down();
    const to = await page.getByTestId('cell-6-23').boundingBox();
    await page.mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('week-grid').textContent()).not.toContain('never');
    await screenshot(page, 'acls-login-acl-create');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/ui\/console\/perms\/login-acls\/(\?.*)?$/);
    const [rule] = await api<Row[]>('GET', '/api/v1/acls/login-acls/?name=e2e no localhost');
    expect(rule).toMatchObject({
      priority: 10,
      action: { value: 'reject' },
      users: { type: 'attrs', attrs: [{ name: 'username', match: 'exact', value: 'acl_e2e' }] },
      rules: { ip_group: ['127.0.0.1', '::1'] },
    });
    expect(rule!.rules.time_period.map((p: Row) => p.value)).toEqual(Array(7).fill('00:00~00:00'));
    await page.getByTestId('resource-list').getByText('e2e no localhost').waitFor();
    await screenshot(page, 'acls-login-acl-list');

    // The rule's Users tab lists who it picks.
    await page.goto(`/ui/console/perms/login-acls/${rule!.id}?activeTab=AclUsers`);
    await page.getByTestId('match-users').getByRole('cell', { name: 'acl_e2e', exact: true }).waitFor();
    await screenshot(page, 'acls-login-acl-users');
    await page.goto(`/ui/console/perms/login-acls/${rule!.id}`);
    await page.getByText('127.0.0.1').first().waitFor();
    await screenshot(page, 'acls-login-acl-detail');

    // The user's sign-in is refused with the rule's message.
    const other = await newContext(browser, inject('baseURL'));
    const userPage = await other.newPage();
    await userPage.goto('/core/auth/login/');
    await signIn(userPage, 'acl_e2e', PASSWORD);
    const error = userPage.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Sign-in refused by an access-control rule');
    expect(new URL(userPage.url()).pathname).toBe('/core/auth/login/');
    await screenshot(userPage, 'acls-login-refused');
    await other.close();
    const logs = await api<Row[]>('GET', '/api/v1/audits/login-logs/?username=acl_e2e');
    expect(logs[0]).toMatchObject({ reason: 'acl_not_allow', reason_display: 'Rejected by a login ACL' });
  }, 180_000);
});

describe('command groups in the console', () => {
  it('tests a command against the group being edited, then lists it in the command filter tabs', async () => {
    await page.goto('/ui/console/perms/cmd-groups/create');
    await form().waitFor();
    await item('Name').locator('input').fill('e2e danger');
    await page.getByTestId('command-content').fill('rm -rf\nreboot');
    const box = page.getByTestId('command-test');
    await box.getByRole('textbox').fill('sudo rm   -rf /tmp/x');
    await box.getByRole('button', { name: 'Test' }).click();
    await page.getByTestId('command-test-result').getByText('Matched: rm   -rf').waitFor();
    await box.getByRole('textbox').fill('rmdir /tmp/x');
    await box.getByRole('button', { name: 'Test' }).click();
    await page.getByTestId('command-test-result').getByText('No match').waitFor();
    await screenshot(page, 'acls-command-group-test');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/ui/console/perms/cmd-groups/**');
    await page.goto('/ui/console/perms/cmd-acls/?activeTab=CommandGroupList');
    await page.getByTestId('resource-list').getByText('e2e danger').waitFor();
    await screenshot(page, 'acls-cmd-acls-groups-tab');
  }, 120_000);
});

describe('the other kinds of rules in the console', () => {
  it('shows the forms of command filters, asset logins and connect methods with their editors', async () => {
    await page.goto('/ui/console/perms/cmd-acls/create');
    await form().waitFor();
    expect(await page.getByTestId('selector-field').count()).toBe(2);
    await item('Accounts').getByText('@ALL', { exact: true }).waitFor();
    await item('Command group').waitFor();
    await screenshot(page, 'acls-cmd-acl-create');

    await page.goto('/ui/console/perms/login-asset-acls/create');
    await form().waitFor();
    expect(await page.getByTestId('selector-field').count()).toBe(2);
    await page.getByTestId('week-grid').waitFor();
    const assets = page.getByTestId('selector-field').nth(1);
    await assets.getByText('By attributes').click();
    await assets.getByRole('combobox', { name: 'Attribute' }).waitFor();
    await screenshot(page, 'acls-login-asset-acl-create');

    await page.goto('/ui/console/perms/connect-method-acls/create');
    await form().waitFor();
    await item('Name').locator('input').fill('e2e no mstsc');
    await item('Connect methods').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle('mstsc').click();
    await page.keyboard.press('Escape');
    await screenshot(page, 'acls-connect-method-acl-create');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/ui\/console\/perms\/connect-method-acls\/(\?.*)?$/);
    const [rule] = await api<Row[]>('GET', '/api/v1/acls/connect-method-acls/?name=e2e no mstsc');
    expect(rule).toMatchObject({ connect_methods: ['mstsc'], action: { value: 'reject' }, users: { type: 'all' } });
    await api('DELETE', `/api/v1/acls/connect-method-acls/${rule!.id}/`);
  }, 120_000);
});
