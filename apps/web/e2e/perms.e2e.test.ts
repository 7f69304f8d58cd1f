import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signIn, signInAdmin } from './browser.ts';

/**
 * Asset permissions end to end: the admin grants a node holding a host to a user group through the
 * console form; a member of the group signs in and finds the host in the workbench's "My assets",
 * with the host's accounts in the picker; the admin takes the user out of the group and the user's
 * next load of "My assets" no longer lists the host (no rebuild step anywhere).
 */
let browser: Browser;
let admin: { ctx: BrowserContext; page: Page };
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const USER_PASSWORD = 'Perm-user-pass1!';
const stamp = Date.now().toString(36);
const names = {
  group: `e2e-ops-${stamp}`,
  user: `pu_${stamp}`,
  node: `e2e-web-${stamp}`,
  host: `e2e-web01-${stamp}`,
  perm: `e2e-grant-${stamp}`,
};
type Row = Record<string, unknown> & { id: string };

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin.ctx, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

beforeAll(async () => {
  browser = await launchBrowser();
  const ctx = await newContext(browser, inject('baseURL'), { width: 1440, height: 900 });
  admin = { ctx, page: await ctx.newPage() };
  await signInAdmin(admin.page, E2E_ADMIN_PASSWORD);
  await dismissTip(admin.page);
});

/** The one-time view-switcher tip of a new browser would cover the screenshots. */
async function dismissTip(page: Page): Promise<void> {
  const tip = page.getByTestId('view-switcher-tip');
  if (
    !(await tip.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    ))
  )
    return;
  await tip.getByRole('button', { name: 'Got it' }).click();
  await tip.waitFor({ state: 'hidden' });
}
afterAll(async () => {
  await browser?.close();
});

/** The form item labelled `label` (the labels come from the server's metadata). */
const item = (page: Page, label: string): Locator =>
  page.locator('.ant-form-item', { has: page.locator(`label[title="${label}"]`) });

/** Types into a remote select and picks the option that shows `option`. */
async function pick(page: Page, select: Locator, typed: string, option: string): Promise<void> {
  await select.locator('.ant-select').first().click();
  await page.keyboard.type(typed);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click({ timeout: 15_000 });
  await page.keyboard.press('Escape');
}

describe('asset permissions', () => {
  let group: Row;
  let user: Row;
  let host: Row;
  let perm: Row;

  it('are created for a user group on a node through the console form', async () => {
    group = await api<Row>('POST', '/api/v1/users/groups/', { name: names.group });
    user = await api<Row>('POST', '/api/v1/users/users/', {
      name: `Paula ${stamp}`,
      username: names.user,
      email: `${names.user}@e2e.test`,
      password_strategy: 'custom',
      password: USER_PASSWORD,
      groups: [group.id],
    });
    const node = await api<Row>('POST', '/api/v1/assets/nodes/', { full_value: names.node });
    host = await api<Row>('POST', '/api/v1/assets/hosts/', {
      name: names.host,
      address: '10.20.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: 22 }],
      nodes: [node.id],
    });
    for (const username of ['root', 'deploy']) {
      await api('POST', '/api/v1/accounts/accounts/', {
        asset: host.id,
        username,
        name: `${username}-acc`,
        secret_type: 'password',
        secret: 'Secret-1x',
      });
    }

    const { page } = admin;
    await page.goto('/ui/console/perms/asset-permissions/');
    await page.getByTestId('asset-permission-list-page').getByTestId('resource-list').waitFor();
    await page.getByTestId('browse-tree').getByText(names.node).waitFor();
    await screenshot(page, 'perms-list');

    await page.goto('/ui/console/perms/asset-permissions/create');
    await page.getByTestId('resource-form').waitFor();
    await item(page, 'Name').locator('input').fill(names.perm);
    await pick(page, item(page, 'User group'), names.group, names.group);
    await pick(page, item(page, 'Node'), names.node, names.node);
    // New permissions grant every account and every action unless told otherwise.
    await expect
      .poll(() => page.getByTestId('perm-accounts-field').locator('.ant-checkbox-wrapper-checked').allTextContents())
      .toEqual(['All accounts']);
    expect(await page.getByTestId('perm-actions-tree').locator('.ant-tree-checkbox-checked').count()).toBe(8);
    await screenshot(page, 'perms-form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/ui\/console\/perms\/asset-permissions\/[0-9a-f-]{36}(\?.*)?$/);
    perm = (await api<Row[]>('GET', `/api/v1/perms/asset-permissions/?name=${names.perm}`))[0]!;
    expect(perm).toMatchObject({
      user_groups: [{ id: group.id }],
      nodes: [expect.objectContaining({ id: node.id })],
      accounts: ['@ALL'],
    });
    expect((perm.actions as { value: string }[]).map((a) => a.value).sort()).toEqual([
      'connect',
      'copy',
      'delete',
      'download',
      'paste',
      'upload',
    ]);
    await page.getByTestId('detail-card').waitFor();
    await screenshot(page, 'perms-detail-basic');

    await page.getByRole('tab', { name: 'Users and groups' }).click();
    await page.getByTestId('perm-relation-user_groups').getByText(names.group).waitFor();
    // Members of the group are listed among the users the permission reaches.
    await page.getByRole('cell', { name: names.user, exact: true }).waitFor();
    await screenshot(page, 'perms-detail-users');
    // Direct members are added and removed through the relation collection.
    const usersCard = page.getByTestId('perm-relation-users');
    await pick(page, usersCard, names.user, names.user);
    await usersCard.getByRole('button', { name: 'Add' }).click();
    // In the list (the picker may still show the name it sent until it clears).
    await usersCard.locator('.ant-list-item').getByText(`Paula ${stamp}`).waitFor();
    await expect
      .poll(async () => (await api<Row>('GET', `/api/v1/perms/asset-permissions/${perm.id}/`)).users)
      .toEqual([expect.objectContaining({ id: user.id })]);
    await usersCard.getByRole('button', { name: 'Remove' }).click();
    await usersCard.locator('.ant-empty').waitFor();
    expect((await api<Row>('GET', `/api/v1/perms/asset-permissions/${perm.id}/`)).users).toEqual([]);
    await page.getByRole('tab', { name: 'Assets and nodes' }).click();
    await page.getByRole('cell', { name: names.host, exact: true }).waitFor();
    await screenshot(page, 'perms-detail-assets');
    await page.getByRole('tab', { name: 'Accounts', exact: true }).click();
    await page.getByRole('cell', { name: 'deploy', exact: true }).first().waitFor();
    await screenshot(page, 'perms-detail-accounts');

    await page.goto('/ui/console/perms/asset-permissions/');
    await page.getByRole('link', { name: names.perm }).waitFor();
    await screenshot(page, 'perms-list-with-row');
    await page.goto(`/ui/console/assets/assets/${host.id}?activeTab=AuthorisedUsers`);
    await page.getByTestId('authorised-users-tab').getByRole('link', { name: names.perm }).waitFor();
    await screenshot(page, 'perms-asset-authorised');

    await page.goto(`/ui/console/users/users/${user.id}?activeTab=GrantedAssets`);
    await page.getByTestId('granted-assets-tab').getByRole('link', { name: names.host }).waitFor();
    await screenshot(page, 'perms-user-granted-assets');
    await page.goto(`/ui/console/users/groups/${group.id}?activeTab=GrantedAssets`);
    await page.getByTestId('granted-assets-tab').getByRole('link', { name: names.host }).waitFor();
    await screenshot(page, 'perms-group-granted-assets');
  }, 150_000);

  it('show the host to a member of the group in My assets, with its accounts, until the member leaves the group', async () => {
    const ctx = await newContext(browser, inject('baseURL'), { width: 1440, height: 900 });
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await signIn(page, names.user, USER_PASSWORD);
    await page.waitForURL('**/ui/**');
    await apiCall(ctx, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
    await page.goto('/ui/workbench/home');
    await dismissTip(page);
    const card = page.getByTestId('workbench-granted-card');
    await expect.poll(() => card.locator('.ant-statistic-content').textContent()).toBe('1');
    await screenshot(page, 'perms-workbench-home');

    await page.goto('/ui/workbench/assets');
    const row = page.locator('tr.ant-table-row', { hasText: names.host });
    await row.waitFor();
    await page.getByTestId('granted-node-tree').getByText(names.node).waitFor();
    await row.getByTestId('account-picker').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect
      .poll(() => options.allTextContents())
      .toEqual(expect.arrayContaining(['root-acc(root)', 'deploy-acc(deploy)']));
    await screenshot(page, 'perms-workbench-my-assets');
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Types' }).click();
    await page.getByTestId('category-node').filter({ hasText: 'Linux' }).click();
    await row.waitFor();
    await screenshot(page, 'perms-workbench-my-assets-types');
    // Connecting opens the web terminal (webTerminal.e2e.test.ts follows it there).
    expect(await row.getByTestId('connect-button').isEnabled()).toBe(true);

    await api('DELETE', `/api/v1/users/users-groups-relations/?user=${user.id}&usergroup=${group.id}`);
    await page.reload();
    await page.getByTestId('my-assets-page').getByTestId('resource-list').locator('.ant-empty').waitFor();
    expect(await page.locator('tr.ant-table-row', { hasText: names.host }).count()).toBe(0);
    await screenshot(page, 'perms-workbench-my-assets-after');
    await ctx.close();
  });
});
