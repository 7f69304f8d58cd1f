import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID, GLOBAL_ORG_NAME } from '@gatehouse/contract';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, newContext, openAsAdmin, screenshot, signIn } from './browser.ts';

/**
 * Issue 6, roles: a custom org role gets a few permissions ticked in the permission tree, is
 * bound to a user from the user detail page, and the user then has exactly what it grants.
 */

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const stamp = Date.now().toString(36);
const ROLE = `Viewer ${stamp}`;
const PASSWORD = 'Viewer-pass1';

const api = apiCall;

const tree = () => page.getByTestId('permission-tree');
const treeNode = (code: string) =>
  tree()
    .locator('.ant-tree-treenode')
    .filter({ has: page.locator(`[title="${code}"]`) });
/** Opens a tree node (a click during the tree's opening animation of another node can be lost: retried). */
async function expand(code: string): Promise<void> {
  for (let i = 0; i < 5 && !(await treeNode(code).locator('.ant-tree-switcher_open').count()); i++) {
    await treeNode(code).locator('.ant-tree-switcher').click();
    await page.waitForTimeout(300);
  }
  await treeNode(code).locator('.ant-tree-switcher_open').waitFor({ timeout: 2000 });
}
const tick = (code: string) => treeNode(code).locator('.ant-tree-checkbox').click();

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  await browser.close();
});

describe('roles', () => {
  let roleId = '';

  it('lists system and org roles; builtin roles show a read-only tree', async () => {
    await page.goto('/ui/console/users/roles/?activeTab=SystemRoles');
    const rows = page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
    // Entering the roles pages switches to the global org first, so the list comes a moment later.
    await expect.poll(() => rows.filter({ hasText: 'System administrator' }).count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('tab', { name: 'Organization roles' }).click();
    await expect.poll(() => rows.filter({ hasText: 'Organization auditor' }).count()).toBe(1);
    await rows.filter({ hasText: 'Organization auditor' }).getByRole('link').first().click();
    await page.waitForURL(`**/ui/console/users/roles/${BUILTIN_ROLE_IDS.OrgAuditor}?scope=org`);
    await tree().waitFor();
    await expect.poll(() => tree().textContent()).toContain('Builtin roles cannot be changed.');
    expect(await tree().getByRole('button', { name: 'Save permissions' }).count()).toBe(0);
    expect(await tree().locator('.ant-tree-checkbox-disabled').count()).toBeGreaterThan(0);

    // Roles are worked on in the global org, with the selector locked; leaving the roles pages
    // puts the user back in the org they were in.
    const selector = page.getByTestId('org-selector');
    await expect.poll(() => selector.textContent()).toContain(GLOBAL_ORG_NAME);
    expect(await page.locator('button:has([data-testid="org-selector"])').count()).toBe(0);
    await page.getByRole('menuitem', { name: 'User list' }).click();
    await page.waitForURL(/\/ui\/console\/users\/users\/?$/);
    await expect.poll(() => selector.textContent()).toContain('DEFAULT');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('jms_current_org_admin') ?? '{}').name)).toBe(
      'DEFAULT',
    );
  });

  it('creates an org role and ticks a few permissions in the tree', async () => {
    await page.goto('/ui/console/users/roles/?activeTab=OrgRoles');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/ui/console/users/roles/create?scope=org');
    await page.locator('form').getByLabel('Name').fill(ROLE);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(
      (u) => /\/ui\/console\/users\/roles\/[0-9a-f-]{36}$/.test(u.pathname) && u.search === '?scope=org',
    );
    roleId = new URL(page.url()).pathname.split('/').pop()!;
    await tree().waitFor();

    await expand('rbac');
    await expand('rbac.console');
    await tick('rbac.view_console');
    await expand('users');
    await expand('users.user');
    await tick('users.view_user');
    await expand('users.usergroup');
    await tick('users.view_usergroup');
    await page.waitForTimeout(300);
    await screenshot(page, 'roles-permission-tree');
    await tree().getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('Permissions saved');

    const perms = await api<{ name: string }[]>(ctx, 'GET', `/api/v1/rbac/permissions/?role=${roleId}`);
    expect(perms.map((p) => p.name).sort()).toEqual(['rbac.view_console', 'users.view_user', 'users.view_usergroup']);
  });

  it('binds the role to a user from the user detail; the user sees exactly what it grants', async () => {
    const username = `viewer_${stamp}`;
    const user = await api<{ id: string }>(
      ctx,
      'POST',
      '/api/v1/users/users/',
      {
        name: `Bound user ${stamp}`,
        username,
        email: `${username}@e2e.test`,
        password_strategy: 'custom',
        password: PASSWORD,
        system_roles: [BUILTIN_ROLE_IDS.User],
        org_roles: [BUILTIN_ROLE_IDS.OrgUser],
      },
      { 'X-JMS-ORG': DEFAULT_ORG_ID },
    ); // the page is still on the roles pages, in the global org
    await page.goto(`/ui/console/users/users/${user.id}`);
    const card = page.getByTestId('user-roles');
    await card.waitFor();
    // Replace "Organization user" with the new role.
    const orgSelect = card.locator('.ant-select').nth(1);
    await orgSelect
      .locator('.ant-select-selection-item')
      .filter({ hasText: 'Organization user' })
      .locator('.ant-select-selection-item-remove')
      .click();
    await orgSelect.click();
    await page.keyboard.type(ROLE);
    await page.waitForTimeout(800); // the search is sent after a pause in typing
    await page.locator('.ant-select-item-option').filter({ hasText: ROLE }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => orgSelect.locator('.ant-select-selection-item').allTextContents()).toEqual([ROLE]);
    await page.waitForTimeout(300);
    await screenshot(page, 'roles-user-roles');
    await card.getByRole('button', { name: 'Save roles' }).click();
    await expect.poll(() => page.locator('.ant-message').textContent()).toContain('Roles saved');
    const saved = await api<{ org_roles: { id: string }[] }>(ctx, 'GET', `/api/v1/users/users/${user.id}/`);
    expect(saved.org_roles.map((r) => r.id)).toEqual([roleId]);

    // The role's users tab lists the user.
    await page.goto(`/ui/console/users/roles/${roleId}?scope=org&activeTab=RoleUsers`);
    await expect
      .poll(
        () =>
          page
            .locator('[data-testid="resource-list"] tbody tr.ant-table-row')
            .filter({ hasText: `Bound user ${stamp}` })
            .count(),
        { timeout: 10_000 },
      )
      .toBe(1);
    await screenshot(page, 'roles-role-users');

    // The user signs in: users and groups are readable, nothing else of the console.
    const viewer = await newContext(browser, inject('baseURL'));
    const p = await viewer.newPage();
    await p.goto('/core/auth/login/');
    await signIn(p, username, PASSWORD);
    await p.waitForURL((u) => u.pathname.startsWith('/ui/'), { timeout: 10_000 });
    await api(viewer, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
    const profile = await api<{ perms: string[] }>(viewer, 'GET', '/api/v1/users/profile/');
    expect(profile.perms).toEqual(
      expect.arrayContaining(['rbac.view_console', 'users.view_user', 'users.view_usergroup']),
    );
    expect(profile.perms).not.toContain('users.add_user');
    expect(profile.perms).not.toContain('assets.view_asset');

    await p.goto('/ui/console/users/users/');
    await p
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    const list = p.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
    await expect.poll(() => list.filter({ hasText: username }).count()).toBe(1);
    expect(await p.getByRole('button', { name: 'Create' }).count()).toBe(0);
    const menu = p.getByTestId('sidebar');
    await expect.poll(() => menu.textContent()).toContain('User groups');
    expect(await menu.textContent()).not.toContain('Assets');
    expect(await menu.textContent()).not.toContain('Roles');
    await p.goto('/ui/console/users/groups/');
    await p.locator('[data-testid="resource-list"]').waitFor();
    await p.goto('/ui/console/users/roles/');
    await expect.poll(() => p.locator('body').textContent()).toContain('You do not have permission to view this page.');
    await viewer.close();
  }, 120_000);
});
