import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  LDAP_READER_DN,
  LDAP_READER_PASSWORD,
  LDAP_USERS_OU,
  startSlapd,
  type Slapd,
} from '@gatehouse/server/test-support/slapd.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, screenshot } from './browser.ts';

/**
 * Settings › Authentication › LDAP against a real slapd: the form saves the directory (the bind
 * password sealed, never shown again), the test buttons answer, and the sync dialog lists the
 * directory's users and imports them. AUTH_LDAP stays off: the tools work without it, and the
 * shared server's sign-ins stay local.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let slapd: Slapd;
const SETTING = '/api/v1/settings/setting/?category=ldap';

beforeAll(async () => {
  slapd = await startSlapd({
    users: [
      { username: 'e2e-ldap-alice', password: 'Alice-pass-1', name: 'Alice' },
      { username: 'e2e-ldap-bob', password: 'Bob-pass-1', name: 'Bob', groups: ['e2e-ops'] },
      { username: 'e2e-ldap-nomail', password: 'Nomail-pass-1', email: null },
    ],
  });
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  await apiCall(ctx, 'PATCH', SETTING, {
    AUTH_LDAP_SERVER_URI: 'ldap://localhost:389',
    AUTH_LDAP_BIND_DN: 'cn=admin,dc=jumpserver,dc=org',
    AUTH_LDAP_SEARCH_OU: 'ou=tech,dc=jumpserver,dc=org',
  });
  await browser.close();
  slapd.stop();
});

describe('LDAP settings page', () => {
  it('saves the directory, tests the connection and a sign-in', async () => {
    await page.goto('/ui/settings/auth');
    await page.getByRole('tab', { name: 'LDAP' }).click();
    const form = page.getByTestId('settings-form-ldap');
    await form.getByLabel('LDAP server').waitFor();
    await form.getByLabel('LDAP server').fill(slapd.url);
    await form.getByLabel('Bind DN').fill(LDAP_READER_DN);
    await form.getByLabel('Password', { exact: true }).fill(LDAP_READER_PASSWORD);
    await form.getByLabel('User OU').fill(LDAP_USERS_OU);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    const stored = await apiCall<Record<string, unknown>>(ctx, 'GET', SETTING);
    expect(stored.AUTH_LDAP_SERVER_URI).toBe(slapd.url);
    expect(stored).not.toHaveProperty('AUTH_LDAP_BIND_PASSWORD');

    await page.getByTestId('ldap-test-config').click();
    await expect
      .poll(() => page.getByTestId('ldap-test-result').first().textContent())
      .toBe('Connected and searched: 3 users found.');
    await screenshot(page, 'settings-ldap');

    await page.getByTestId('ldap-test-login').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Username').fill('e2e-ldap-alice');
    await dialog.getByLabel('Password').fill('Alice-pass-1');
    await dialog.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => dialog.getByTestId('ldap-login-result').textContent())
      .toBe('Authentication success: e2e-ldap-alice');
    await screenshot(page, 'settings-ldap-test-login');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('lists the directory users and imports all of them, reporting the entry without email', async () => {
    await page.getByTestId('ldap-sync-users').click();
    const dialog = page.getByRole('dialog');
    const rows = dialog.getByTestId('ldap-users').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    await dialog.locator('.ant-select').filter({ hasText: 'Organizations' }).click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="DEFAULT"]')
      .click();
    await dialog.getByRole('button', { name: 'Import all' }).click();
    const result = dialog.getByTestId('ldap-import-result');
    await expect.poll(() => result.textContent()).toContain('Imported 2 users successfully');
    expect(await result.textContent()).toContain('e2e-ldap-nomail: the directory entry has no email address.');
    await screenshot(page, 'settings-ldap-sync');
  });
});
