import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, pickMenuItem, screenshot, signInAdmin } from './browser.ts';
import { startSshd, type SshdWithUsers } from '@gatehouse/server/test-support/sshd.ts';

/**
 * The account vault in the console: a password account and an SSH-key account added to a host
 * whose SSH is a real OpenSSH started here, both tested, the secret viewed after re-verification,
 * changed (the test then fails) and its former version seen in the history; then the secret edited
 * inline in the list, seen after a fresh re-verification with the former version in the history.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let sshd: SshdWithUsers;

beforeAll(async () => {
  sshd = await startSshd({ users: [{ username: 'vaultuser', password: 'Right-pass-1' }] });
  browser = await launchBrowser();
  ctx = await newContext(browser, inject('baseURL'), { width: 1400, height: 900 });
  page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  sshd?.stop();
});

interface Account {
  id: string;
  name: string;
  connectivity: { value: string };
}
const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);
/** The table row whose name link is `name` (the username column repeats names). */
const row = (name: string): Locator =>
  page.locator('tr.ant-table-row', { has: page.getByRole('link', { name, exact: true }) });

async function rowAction(name: string, action: string): Promise<void> {
  await row(name).locator('[data-action="more"]').click();
  await pickMenuItem(page, action, true);
}

/** Starts the test of one account from its row; the task-log tab it opens is closed again. */
async function testAccount(name: string, hostId: string): Promise<string> {
  const before = await api<Account[]>('GET', `/api/v1/accounts/accounts/?asset=${hostId}&name=${name}`);
  const popup = ctx.waitForEvent('page');
  await rowAction(name, 'Test');
  await (await popup).close();
  let state = '-';
  await expect
    .poll(
      async () => {
        const [a] = await api<(Account & { date_verified: string | null })[]>(
          'GET',
          `/api/v1/accounts/accounts/?asset=${hostId}&name=${name}`,
        );
        state = a!.connectivity.value;
        return (
          a!.date_verified !== null && a!.date_verified !== (before[0] as { date_verified?: string }).date_verified
        );
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return state;
}

async function fillDialog(dialog: Locator, fields: { name: string; username?: string; secret: string; key?: boolean }) {
  await dialog.getByTestId('account-name').fill(fields.name);
  if (fields.username) await dialog.getByTestId('account-username').fill(fields.username);
  if (fields.key) {
    await dialog.getByTestId('account-secret-type').click();
    await page.locator('.ant-select-item-option[title="SSH key"]').click();
  }
  await dialog.getByTestId('account-secret').fill(fields.secret);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('the account vault', () => {
  it('adds, tests, reveals, changes and shows the history of accounts on a host', async () => {
    const host = await api<{ id: string; name: string }>('POST', '/api/v1/assets/hosts/', {
      name: 'vault-e2e-host',
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: sshd.port }],
    });
    await page.goto(`/ui/console/assets/assets/${host.id}?activeTab=Accounts`);

    await page.getByTestId('list-create').click();
    const add = page.getByRole('dialog', { name: 'Add account' });
    await fillDialog(add, { name: sshd.username, secret: sshd.password });
    await row(sshd.username).waitFor();
    await page.getByTestId('list-create').click();
    await fillDialog(add, { name: 'vault-key', username: sshd.username, secret: sshd.privateKey, key: true });
    await row('vault-key').waitFor();
    await screenshot(page, 'accounts-asset-tab');

    expect(await testAccount(sshd.username, host.id)).toBe('ok');
    expect(await testAccount('vault-key', host.id)).toBe('ok');
    await page.reload();
    await expect.poll(() => row('vault-key').getByTestId('asset-connectivity').getAttribute('data-value')).toBe('ok');

    // Viewing the secret asks who you are first.
    await row(sshd.username).locator('[data-action="view"]').click();
    const verify = page.getByRole('dialog', { name: 'Verify your identity' });
    await verify.getByTestId('reverify-secret').fill(E2E_ADMIN_PASSWORD);
    await verify.getByTestId('reverify-submit').click();
    const shown = page.getByTestId('secret-value');
    await expect.poll(() => shown.textContent()).toBe(sshd.password);
    await screenshot(page, 'accounts-view-secret');
    await page.getByRole('dialog', { name: 'Account secret' }).getByRole('button', { name: 'Close' }).click();

    // A wrong secret: the next test says Unreachable, and the history keeps the right one.
    await rowAction(sshd.username, 'Update');
    const edit = page.getByRole('dialog', { name: 'Update account' });
    await edit.getByTestId('account-secret').fill('Wrong-pass-1');
    await edit.getByRole('button', { name: 'OK' }).click();
    await edit.waitFor({ state: 'hidden' });
    expect(await testAccount(sshd.username, host.id)).toBe('err');
    await rowAction(sshd.username, 'Secret history');
    const history = page.getByTestId('secret-history');
    await expect.poll(() => history.getByTestId('history-secret').first().textContent()).toBe(sshd.password);
    await screenshot(page, 'accounts-secret-history');

    await page.goto('/ui/console/accounts/accounts/');
    await row('vault-key').waitFor();
    await screenshot(page, 'accounts-list');
    // The secrets export: a warning, then the file (the re-verification above still holds).
    await page.getByTestId('export-secrets').click();
    const warn = page.getByRole('dialog', { name: 'Export the accounts with their secrets?' });
    const download = page.waitForEvent('download');
    await warn.getByRole('button', { name: 'OK' }).click();
    const file = await (await download).path();
    const csv = fs.readFileSync(file, 'utf8');
    expect(csv).toContain('vault-key');
    expect(csv).toContain('Wrong-pass-1');
    await page.goto('/ui/console/accounts/accounts/?activeTab=virtual');
    await page.getByTestId('virtual-accounts').getByText('@USER').waitFor();
    const key = (await api<Account[]>('GET', `/api/v1/accounts/accounts/?name=vault-key`))[0]!;
    await page.goto(`/ui/console/accounts/accounts/${key.id}`);
    await page.getByTestId('account-view-secret').waitFor();
    await screenshot(page, 'accounts-detail');

    // Templates: the list, and the form with its secret strategy.
    await api('POST', '/api/v1/accounts/account-templates/', {
      name: 'e2e-template',
      username: 'deploy',
      secret_strategy: 'random',
    });
    await page.goto('/ui/console/accounts/account-template/');
    await row('e2e-template').waitFor();
    await screenshot(page, 'accounts-templates');
    await page.goto('/ui/console/accounts/account-template/create');
    await page.getByText('Secret strategy').waitFor();
    await screenshot(page, 'accounts-template-form');
  }, 180_000);

  it('edits a secret inline in the list: the new value shows after re-verification, the former in the history', async () => {
    // A fresh session, so viewing the secret needs its own re-verification.
    const fresh = await newContext(browser, inject('baseURL'), { width: 1400, height: 900 });
    const p = await fresh.newPage();
    try {
      await signInAdmin(p, E2E_ADMIN_PASSWORD);
      await p.goto('/ui/console/accounts/accounts/');
      const r = p.locator('tr.ant-table-row', { has: p.getByRole('link', { name: sshd.username, exact: true }) });
      await r.locator('[data-action="more"]').click();
      await pickMenuItem(p, 'Edit secret', true);
      const editor = r.getByTestId('inline-secret-editor');
      await editor.getByTestId('inline-secret').fill(sshd.password);
      await expect.poll(() => editor.getByTestId('inline-secret-save').isEnabled()).toBe(true);
      await screenshot(p, 'accounts-inline-secret-edit');
      // Saving reloads the list: act on the row once the reloaded one is in place, not on the old one.
      const reloaded = p.waitForResponse(
        (res) => res.request().method() === 'GET' && res.url().includes('/api/v1/accounts/accounts/?'),
      );
      await editor.getByTestId('inline-secret-save').click();
      await editor.waitFor({ state: 'hidden' });
      await reloaded;

      await r.locator('[data-action="view"]').click();
      const verify = p.getByRole('dialog', { name: 'Verify your identity' });
      await verify.getByTestId('reverify-secret').fill(E2E_ADMIN_PASSWORD);
      await verify.getByTestId('reverify-submit').click();
      await expect.poll(() => p.getByTestId('secret-value').textContent()).toBe(sshd.password);
      await p.getByRole('dialog', { name: 'Account secret' }).getByRole('button', { name: 'Close' }).click();

      await r.locator('[data-action="more"]').click();
      await pickMenuItem(p, 'Secret history', true);
      const history = p.getByTestId('secret-history').getByTestId('history-secret');
      await expect.poll(() => history.first().textContent()).toBe('Wrong-pass-1');
      expect(await history.allTextContents()).toContain(sshd.password);
      // Closed by its button: Escape reaches the dialog only while the focus is inside it.
      await p
        .getByRole('dialog')
        .filter({ has: p.getByTestId('secret-history') })
        .locator('.ant-modal-close')
        .click();
      await p.getByTestId('secret-history').waitFor({ state: 'hidden' });

      // The account dialog offers su_from: the other accounts of the same asset (Linux allows su).
      await r.locator('[data-action="more"]').click();
      await pickMenuItem(p, 'Update', true);
      const edit = p.getByRole('dialog', { name: 'Update account' });
      await edit.getByTestId('account-su-from').click();
      await p.locator('.ant-select-item-option', { hasText: 'vault-key' }).click();
      await edit.getByRole('button', { name: 'OK' }).click();
      await edit.waitFor({ state: 'hidden' });
      const [saved] = await api<(Account & { su_from: { name: string } | null })[]>(
        'GET',
        `/api/v1/accounts/accounts/?name=${sshd.username}`,
      );
      expect(saved!.su_from?.name).toBe('vault-key');
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
