import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startSshd, type SshdWithUsers } from '@gatehouse/server/test-support/sshd.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, pickMenuItem, pickOption, screenshot, searchAndPick } from './browser.ts';

/**
 * Issue 7 as an administrator uses it: a Linux host created through its form and tested against a
 * real OpenSSH server, the protocol editor's rules, the asset detail, platforms, and a CSV import.
 * Issue 28: the form requires a node and creates the asset's accounts (its Accounts group), whose
 * secrets leave the browser encrypted and then log in to the sshd.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let sshd: SshdWithUsers;
let tmp: string;
/** A node of this file's own, chosen in the forms' required node field. */
const NODE = 'e2e-forms';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

beforeAll(async () => {
  sshd = await startSshd({ users: [{ username: 'formuser', password: 'Form-pass-1' }] });
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
  await api('POST', '/api/v1/assets/nodes/', { full_value: `/DEFAULT/${NODE}` });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-assets-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  sshd?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);

const form = () => page.getByTestId('resource-form');
const field = (label: string) => form().getByLabel(label, { exact: true });
/** Waits until no table or card is loading, so screenshots show the page as people see it. */
async function settled() {
  await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0);
}

/** The form item holding a custom input (by its test id). */
const itemOf = (testId: string) =>
  form()
    .locator('.ant-form-item')
    .filter({ has: page.getByTestId(testId) });
const nodesItem = () =>
  form()
    .locator('.ant-form-item')
    .filter({ has: page.locator('#nodes') });

/** Chooses this file's node in the form's node field. */
async function chooseNode() {
  await searchAndPick(
    page.locator('#nodes'),
    NODE,
    page.locator(`.ant-select-item-option[title="/DEFAULT/${NODE}"]`),
    async () => ((await nodesItem().textContent()) ?? '').includes(NODE),
  );
  await page.keyboard.press('Escape');
}

/** Adds one account in the Accounts group's dialog. */
async function addAccount(fields: { name?: string; username: string; secret: string }) {
  await page.getByTestId('asset-account-add').click();
  const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('asset-account-dialog') });
  if (fields.name) await dialog.getByTestId('asset-account-name').fill(fields.name);
  await dialog.getByTestId('asset-account-username').fill(fields.username);
  await dialog.getByTestId('asset-account-secret').fill(fields.secret);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The asset-detail Accounts tab's row whose name link is `name`. */
const accountRow = (name: string): Locator =>
  page.locator('tr.ant-table-row', { has: page.getByRole('link', { name, exact: true }) });

describe('assets forms', () => {
  let hostId: string;

  it('creates a Linux host through its form (platform from ?platform=) with its SSH port on a real sshd', async () => {
    const linux = await api<Row>('GET', '/api/v1/assets/platforms/Linux/');
    await page.goto(`/ui/console/assets/hosts/create?platform=${linux.id}`);
    await form().waitFor();
    await page.getByTestId('protocol-row-0').waitFor();
    // The platform's primary (ssh) and default (sftp) protocols come first.
    expect(await page.getByTestId('protocol-row-0').locator('.ant-select').textContent()).toContain('ssh');
    expect(await page.getByTestId('protocol-row-1').locator('.ant-select').textContent()).toContain('sftp');
    await field('Name').fill('e2e-ssh-host');
    await field('IP/Host').fill('127.0.0.1');

    // Protocol rules: a bad port is refused with its message; the primary and the last row stay.
    // The node is required too: no node, no asset.
    await page.getByTestId('protocol-port-0').fill('99999');
    await page.getByRole('button', { name: 'Submit' }).click();
    await itemOf('protocols-field').getByText('Port Error, please check').waitFor();
    await nodesItem().getByText('This field is required').waitFor();
    expect(await nodesItem().locator('.ant-form-item-required').count()).toBe(1);
    await screenshot(page, 'assets-host-create-node-required');
    await chooseNode();
    await expect.poll(() => nodesItem().getByText('This field is required').count(), { timeout: 10_000 }).toBe(0);
    await page.getByTestId('protocol-port-0').fill(String(sshd.port));
    await expect
      .poll(() => itemOf('protocols-field').getByText('Port Error, please check').count(), { timeout: 10_000 })
      .toBe(0);
    expect(await page.getByTestId('protocol-remove-0').isDisabled()).toBe(true);
    await page.getByTestId('protocol-remove-1').click();
    await expect.poll(() => page.getByTestId('protocol-row-1').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByTestId('protocol-remove-0').isDisabled()).toBe(true);

    // Labels must be name:value.
    const labels = page.getByTestId('labels-field');
    await labels.click();
    await page.keyboard.type('oops');
    await page.keyboard.press('Enter');
    await itemOf('labels-field').getByText('Format error, correct format is name:value').waitFor();
    await labels.locator('.ant-tag-close-icon').first().click();
    await labels.click();
    await page.keyboard.type('env:e2e');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => itemOf('labels-field').getByText('Format error, correct format is name:value').count(), {
        timeout: 10_000,
      })
      .toBe(0);
    await page.keyboard.press('Escape');
    await field('Comment').click();
    await page
      .locator('.ant-select-dropdown:visible')
      .waitFor({ state: 'detached', timeout: 5000 })
      .catch(() => undefined);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'assets-host-create');

    // The Accounts group: two accounts typed, one changed, one removed, the sshd user's kept.
    const accounts = page.getByTestId('asset-accounts-field');
    await accounts.scrollIntoViewIfNeeded();
    await addAccount({ name: 'root', username: 'root', secret: 'Not-this-1' });
    await addAccount({ username: sshd.username, secret: 'Wrong-for-now-1' });
    await expect.poll(() => accounts.locator('tbody tr.ant-table-row').count()).toBe(2);
    // The name filled the username and made root privileged, as in the account dialog.
    expect(await accounts.locator('tbody tr.ant-table-row').first().textContent()).toContain('Yes');
    await page.getByTestId('asset-account-edit-1').click();
    const edit = page.locator('.ant-modal').filter({ has: page.getByTestId('asset-account-dialog') });
    await edit.getByTestId('asset-account-secret').fill(sshd.password);
    await edit.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((x) => x.finished)));
    await screenshot(page, 'assets-host-account-dialog');
    await edit.getByRole('button', { name: 'OK' }).click();
    await edit.waitFor({ state: 'hidden' });
    await page.getByTestId('asset-account-remove-0').click();
    await expect.poll(() => accounts.locator('tbody tr.ant-table-row').count()).toBe(1);
    // A second row with the same username and secret type is refused in the dialog.
    await page.getByTestId('asset-account-add').click();
    await edit.getByTestId('asset-account-username').fill(sshd.username);
    await edit.getByRole('button', { name: 'OK' }).click();
    await edit.getByText('An account with this username and secret type is already in the list').waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'hidden' });
    await accounts.scrollIntoViewIfNeeded();
    await screenshot(page, 'assets-host-create-accounts');

    const posted: Row[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/assets/hosts/')
        posted.push(r.postDataJSON() as Row);
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('form-success').waitFor();
    await page.waitForURL('**/ui/console/assets/assets/**');
    const [host] = await api<Row[]>('GET', '/api/v1/assets/hosts/?name=e2e-ssh-host');
    expect(host).toMatchObject({ address: '127.0.0.1', platform: { name: 'Linux' } });
    expect(host!.protocols).toEqual([{ name: 'ssh', port: sshd.port }]);
    expect(host!.labels.map((l: Row) => `${l.name}:${l.value}`)).toEqual(['env:e2e']);
    expect(host!.nodes_display).toEqual([`/DEFAULT/${NODE}`]);
    hostId = host!.id;
    // The account's password left the browser encrypted.
    expect(posted).toHaveLength(1);
    expect(posted[0]!.accounts).toEqual([
      { username: sshd.username, secret_type: 'password', privileged: false, secret: expect.stringMatching(/^gh1\./) },
    ]);
    expect(JSON.stringify(posted[0])).not.toContain(sshd.password);
    const made = await api<Row[]>('GET', `/api/v1/accounts/accounts/?asset=${hostId}`);
    expect(made.map((a) => [a.username, a.secret_type.value])).toEqual([[sshd.username, 'password']]);
  });

  it('tests connectivity from the detail page, opening the task log, and shows Reachable', async () => {
    await page.goto(`/ui/console/assets/assets/${hostId}`);
    await page.getByTestId('asset-quick-actions').waitFor();
    expect(await page.getByTestId('asset-connectivity').getAttribute('data-value')).toBe('-');
    const popup = ctx.waitForEvent('page');
    await page.getByTestId('asset-test').click();
    const log = await popup;
    await expect.poll(() => log.url(), { timeout: 10_000 }).toMatch(/\/ui\/ops\/celery\/task\/[\w-]+\/log\/$/);
    await log.close();
    await expect
      .poll(() => page.getByTestId('asset-connectivity').getAttribute('data-value'), { timeout: 20_000 })
      .toBe('ok');
    expect(await page.getByTestId('asset-connectivity').textContent()).toBe('Reachable');
    expect(await page.getByTestId('asset-labels-card').textContent()).toContain('env:e2e');
    await settled();
    await screenshot(page, 'assets-detail');

    // Update goes to the host form and back to the detail page.
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(`**/ui/console/assets/hosts/${hostId}/update`);
    await form().waitFor();
    await expect
      .poll(() => page.getByTestId('protocol-port-0').inputValue(), { timeout: 10_000 })
      .toBe(String(sshd.port));
    // Accounts are created with the asset only: the update form has no Accounts group.
    expect(await page.getByTestId('asset-accounts-field').count()).toBe(0);
    await field('Comment').fill('tested');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`**/ui/console/assets/assets/${hostId}`);
    expect((await api<Row>('GET', `/api/v1/assets/hosts/${hostId}/`)).comment).toBe('tested');

    // The account made with the asset is on its Accounts tab, and logs in to the sshd with the typed password.
    await page.goto(`/ui/console/assets/assets/${hostId}?activeTab=Accounts`);
    await accountRow(sshd.username).waitFor();
    const taskLog = ctx.waitForEvent('page');
    await accountRow(sshd.username).locator('[data-action="more"]').click();
    await pickMenuItem(page, 'Test', true);
    await (await taskLog).close();
    await expect
      .poll(() => accountRow(sshd.username).getByTestId('asset-connectivity').getAttribute('data-value'), {
        timeout: 30_000,
      })
      .toBe('ok');
    await settled();
    await screenshot(page, 'assets-detail-accounts');
  });

  it('clones the host with its accounts (secrets copied) and adds one from a template', async () => {
    await api('POST', '/api/v1/accounts/account-templates/', {
      name: 'e2e-tpl',
      username: 'tpluser',
      secret_type: 'password',
      secret: 'Tpl-pass-1',
    });
    const linux = await api<Row>('GET', '/api/v1/assets/platforms/Linux/');
    await page.goto(`/ui/console/assets/hosts/create?platform=${linux.id}&clone_from=${hostId}`);
    await form().waitFor();
    const accounts = page.getByTestId('asset-accounts-field');
    await expect.poll(() => accounts.locator('tbody tr.ant-table-row').textContent()).toContain('Secret copied');
    await page.getByTestId('asset-account-template-add').click();
    const pick = page.locator('.ant-modal').filter({ has: page.getByTestId('asset-account-templates') });
    const templates = pick.getByTestId('asset-account-templates');
    await templates.click();
    // A click while the dropdown is still opening can land beside the option (a busy machine):
    // wait for its animation, and for the choice to show in the select before going on.
    await pickOption(page.locator('.ant-select-item-option[title="e2e-tpl(tpluser)"]'));
    await expect.poll(() => templates.locator('.ant-select-selection-item').count()).toBe(1);
    // The multiple select stays open over the dialog's buttons: a click on the title closes it.
    await pick.locator('.ant-modal-title').click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(() => pick.getByRole('button', { name: 'OK' }).isEnabled()).toBe(true);
    await pick.getByRole('button', { name: 'OK' }).click();
    await pick.waitFor({ state: 'hidden' });
    await expect.poll(() => accounts.locator('tbody tr.ant-table-row').count()).toBe(2);
    await accounts.scrollIntoViewIfNeeded();
    await screenshot(page, 'assets-host-clone-accounts');
    await field('Name').fill('e2e-ssh-clone');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('form-success').waitFor();
    const [clone] = await api<Row[]>('GET', '/api/v1/assets/hosts/?name=e2e-ssh-clone');
    expect(clone!.nodes_display).toEqual([`/DEFAULT/${NODE}`]);
    const made = await api<Row[]>('GET', `/api/v1/accounts/accounts/?asset=${clone!.id}`);
    expect(made.map((a) => [a.username, a.source.value]).sort()).toEqual([
      [sshd.username, 'local'],
      ['tpluser', 'template'],
    ]);
    // The copied secret is the one typed in the first form: it logs in.
    const copied = made.find((a) => a.username === sshd.username)!;
    const { task } = await api<{ task: string }>('POST', '/api/v1/accounts/accounts/tasks/', {
      action: 'verify',
      accounts: [copied.id],
    });
    await expect
      .poll(async () => (await api<Row>('GET', `/api/v1/ops/celery/task/${task}/`)).state, { timeout: 30_000 })
      .toBe('SUCCESS');
    expect((await api<Row>('GET', `/api/v1/accounts/accounts/${copied.id}/`)).connectivity.value).toBe('ok');
  });

  it('imports ten hosts from a CSV naming the platform and the node path, on the Host tab', async () => {
    const lines = ['*Name,*IP/Host,*Platform,Protocols,Node path'];
    for (let i = 1; i <= 10; i++)
      lines.push(`e2e-imp-${String(i).padStart(2, '0')},10.77.0.${i},Linux,ssh/22,/Default/e2e-import`);
    const file = path.join(tmp, 'hosts.csv');
    fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    await page.goto('/ui/console/assets/assets/?activeTab=host');
    await page.getByTestId('list-import').click();
    const d = page.getByRole('dialog', { name: 'Import' });
    await d.locator('input[type="file"]').setInputFiles(file);
    await d.getByTestId('import-review').waitFor();
    await page.getByTestId('import-button').click();
    await expect.poll(() => page.getByTestId('import-button').textContent(), { timeout: 30_000 }).toBe('Finished');
    await page.getByTestId('import-button').click();
    await d.waitFor({ state: 'hidden' });
    const imported = await api<{ count: number; results: Row[] }>(
      'GET',
      '/api/v1/assets/hosts/?search=e2e-imp-&limit=20&offset=0',
    );
    expect(imported.count).toBe(10);
    expect(imported.results[0]).toMatchObject({ platform: { name: 'Linux' }, protocols: [{ name: 'ssh', port: 22 }] });
    expect(imported.results[0]!.nodes_display ?? imported.results[0]!.nodes.map((n: Row) => n.name)).toEqual(
      expect.arrayContaining([expect.stringContaining('e2e-import')]),
    );
    await page.getByTestId('search-input').fill('e2e-imp-');
    await page.getByTestId('search-input').press('Enter');
    const rows = page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(10);
  });

  it('lists platforms; builtin ones cannot be changed; a custom one is created with its protocols', async () => {
    await page.goto('/ui/console/assets/platforms/');
    const rows = page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(5);
    expect(await rows.filter({ hasText: 'MySQL' }).count()).toBe(0);
    await settled();
    await screenshot(page, 'assets-platform-list');
    await page.getByRole('tab', { name: 'Database' }).click();
    await expect.poll(() => rows.filter({ hasText: 'MySQL' }).count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.filter({ hasText: 'Linux' }).count()).toBe(0);
    const linux = await api<Row>('GET', '/api/v1/assets/platforms/Linux/');
    await page.goto(`/ui/console/assets/platforms/${linux.id}`);
    await page.getByTestId('detail-title').waitFor();
    expect(await page.getByRole('button', { name: 'Update' }).count()).toBe(0);

    await page.goto('/ui/console/assets/platforms/create?category=host&type=linux');
    await form().waitFor();
    await screenshot(page, 'assets-platform-create');
    await field('Name').fill('E2E-Linux');
    await page.getByTestId('protocol-port-0').fill('2222');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('form-success').waitFor();
    const mine = await api<Row>('GET', '/api/v1/assets/platforms/E2E-Linux/');
    expect(mine.protocols[0]).toMatchObject({ name: 'ssh', port: 2222, primary: true });
  });

  it('creates a domain, then a gateway from its Gateways tab, and shows labels with their colour', async () => {
    await page.goto('/ui/console/assets/domains/create');
    await form().waitFor();
    await field('Name').fill('e2e-dmz');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('form-success').waitFor();
    const [domain] = await api<Row[]>('GET', '/api/v1/assets/domains/?name=e2e-dmz');

    await page.goto(`/ui/console/assets/domains/${domain!.id}?activeTab=GatewayList`);
    await page.getByTestId('list-create').click();
    await page.waitForURL(`**/ui/console/assets/gateways/create?domain=${domain!.id}`);
    await form().waitFor();
    await expect
      .poll(() => form().locator('.ant-form-item').filter({ hasText: 'Platform' }).textContent(), { timeout: 10_000 })
      .toContain('Gateway');
    await field('Name').fill('e2e-gw');
    await field('IP/Host').fill('127.0.0.1');
    await chooseNode();
    await page.getByTestId('protocol-port-0').fill(String(sshd.port));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`**/ui/console/assets/domains/${domain!.id}?activeTab=GatewayList`);
    const rows = page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
    await expect.poll(() => rows.filter({ hasText: 'e2e-gw' }).count(), { timeout: 10_000 }).toBe(1);
    await settled();
    await screenshot(page, 'assets-domain-gateways');
    expect((await api<Row[]>('GET', `/api/v1/assets/gateways/?domain=${domain!.id}`))[0]).toMatchObject({
      name: 'e2e-gw',
      platform: { name: 'Gateway' },
    });

    await page.goto('/ui/console/assets/labels/');
    await expect
      .poll(() => page.getByTestId('label-tag').filter({ hasText: 'env:e2e' }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.getByTestId('label-tag').filter({ hasText: 'env:e2e' }).getAttribute('class')).toMatch(
      /ant-tag-\w+/,
    );
    await settled();
    await screenshot(page, 'assets-labels');
  });
});
