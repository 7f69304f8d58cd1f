import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { DEFAULT_ORG_ID, ORG_COOKIE } from '@gatehouse/contract';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, newContext, openAsAdmin, pickMenuItem, screenshot, signIn } from './browser.ts';

/**
 * Issue 3 as an administrator uses it: the generic list, form, detail, export and import screens
 * on the users pages, against a real server.
 */
const USERS = '/api/v1/users/users/';
const LIST = '/ui/console/users/users/';

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let tmp: string;

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-users-e2e-'));
});
afterAll(async () => {
  await browser.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface User {
  id: string;
  name: string;
  username: string;
  email: string;
  comment: string;
}

/** Calls the API with the page's session, as the console does. */
const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);

const findUser = async (username: string) => (await api<User[]>('GET', `${USERS}?username=${username}`))[0];
const createUser = (username: string) =>
  api<User>('POST', USERS, { name: `E2E ${username}`, username, email: `${username}@e2e.test` });

const rows = () => page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
const row = (text: string) => rows().filter({ hasText: text });
const dialog = () => page.locator('.ant-modal:visible');
/** The form of the page, once it has loaded. */
async function form() {
  const f = page.getByTestId('resource-form');
  await f.waitFor();
  return f;
}

async function openList(query = '') {
  await page.goto(`${LIST}${query}`);
  await page.getByTestId('search-input').waitFor();
}

async function search(text: string) {
  await page.getByTestId('search-input').fill(text);
  await page.getByTestId('search-input').press('Enter');
  await page.waitForURL((u) => u.searchParams.get('search')?.split(',').includes(text) ?? false);
}

async function openDialog(testId: string, title: string) {
  await dialog().waitFor({ state: 'hidden' });
  await page.getByTestId(testId).click();
  const d = page.getByRole('dialog', { name: title });
  await d.waitFor();
  return d;
}

/**
 * Chooses a radio option. A click that lands while a dialog is still animating open can be lost
 * on a busy machine, so the choice is retried until the radio reports itself checked.
 */
async function choose(scope: Locator, name: string | RegExp): Promise<void> {
  const radio = scope.getByRole('radio', { name });
  await expect
    .poll(
      async () => {
        if (!(await radio.isChecked())) await radio.check({ timeout: 2000 }).catch(() => undefined);
        return radio.isChecked();
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

async function exportAs(scope: 'All' | RegExp | 'Filtered', format: 'CSV' | 'Excel'): Promise<Download> {
  const d = await openDialog('list-export', 'Export');
  await choose(d, scope);
  await choose(d, format);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    d.getByRole('button', { name: 'Export' }).click(),
  ]);
  await d.waitFor({ state: 'hidden' });
  return download;
}

const textOf = async (d: Download) => fs.readFileSync((await d.path())!, 'utf8');

describe('the users pages', () => {
  it('create a user through the form, find it with a search tag, edit it and show the diff in its Activity tab', async () => {
    await openList();
    await page.getByTestId('list-create').click();
    await page.waitForURL('**/ui/console/users/users/create');
    const create = await form();
    await create.getByLabel('Name', { exact: true }).fill('E2E Carol');
    await create.getByLabel('Username', { exact: true }).fill('e2e_carol');
    await create.getByLabel('Email', { exact: true }).fill('carol@e2e.test');
    await choose(create, 'Set password');
    await create.getByLabel('Password', { exact: true }).fill('Carol-Pass-2024');
    await screenshot(page, 'users-form');
    await create.getByRole('button', { name: 'Submit' }).click();
    expect(await page.getByTestId('form-success').textContent()).toBe('E2E Carol created');
    await page.waitForURL((u) => u.pathname === LIST && u.searchParams.get('order') === '-date_updated');
    // The form sent the password encrypted: it is the one Carol signs in with.
    const carolCtx = await newContext(browser, inject('baseURL'));
    const carolPage = await carolCtx.newPage();
    await carolPage.goto('/core/auth/login/');
    await signIn(carolPage, 'e2e_carol', 'Carol-Pass-2024');
    await carolPage.waitForURL('**/ui/**');
    await carolCtx.close();

    await search('e2e_carol');
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain('carol@e2e.test');
    await page.reload();
    await expect.poll(() => page.getByTestId('search-tags').textContent()).toContain('e2e_carol');
    await expect.poll(() => rows().count()).toBe(1);
    await screenshot(page, 'users-list');

    await row('e2e_carol').getByRole('link', { name: 'E2E Carol' }).click();
    await page.waitForURL(/\/ui\/console\/users\/users\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId('detail-title').textContent()).toBe('User: E2E Carol');
    await page.getByTestId('detail-card').waitFor();
    await screenshot(page, 'users-detail');

    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(/\/update$/);
    const update = await form();
    await expect.poll(() => update.getByLabel('Name', { exact: true }).inputValue()).toBe('E2E Carol');
    await update.getByLabel('Name', { exact: true }).fill('E2E Caroline');
    await update.getByLabel('Comment').fill('on call');
    await update.getByRole('button', { name: 'Submit' }).click();
    expect(await page.getByTestId('form-success').textContent()).toBe('E2E Caroline updated');
    await page.waitForURL((u) => u.pathname === LIST);

    const carol = (await findUser('e2e_carol'))!;
    expect(carol).toMatchObject({ name: 'E2E Caroline', comment: 'on call' });
    await page.goto(`${LIST}${carol.id}?activeTab=Activity`);
    const item = page.getByTestId('activity-item').filter({ hasText: 'updated' }).first();
    await item.click();
    const diff = page.getByTestId('diff-table');
    await diff.waitFor();
    const nameRow = diff.locator('tr').filter({ hasText: 'Name' }).first();
    expect(await nameRow.textContent()).toContain('E2E Carol');
    expect(await nameRow.textContent()).toContain('E2E Caroline');
    await screenshot(page, 'users-activity-diff');
  });

  it('export all, selected and filtered users as CSV and XLSX', async () => {
    await createUser('e2e_export_a');
    await createUser('e2e_export_b');
    await openList();

    const all = await exportAs('All', 'CSV');
    expect(all.suggestedFilename()).toMatch(/^user_.*\.csv$/);
    const allCsv = await textOf(all);
    expect(allCsv).toContain('*Username');
    for (const u of ['admin', 'e2e_export_a', 'e2e_export_b']) expect(allCsv).toContain(u);
    const allXlsx = await exportAs('All', 'Excel');
    expect(allXlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(
      fs
        .readFileSync((await allXlsx.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    await row('e2e_export_a').locator('.ant-checkbox').click();
    const selected = await textOf(await exportAs(/^Selected \(1\)$/, 'CSV'));
    expect(selected).toContain('e2e_export_a');
    expect(selected).not.toContain('e2e_export_b');
    expect(selected).not.toContain('admin@example.com');
    const selectedXlsx = await exportAs(/^Selected \(1\)$/, 'Excel');
    expect(
      fs
        .readFileSync((await selectedXlsx.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    await search('e2e_export_');
    await expect.poll(() => rows().count()).toBe(2);
    const d = await openDialog('list-export', 'Export');
    expect(await d.getByRole('radio', { name: 'All' }).isDisabled()).toBe(true);
    await d.getByRole('button', { name: 'Cancel' }).click();
    const filtered = await textOf(await exportAs('Filtered', 'CSV'));
    expect(filtered).toContain('e2e_export_a');
    expect(filtered).toContain('e2e_export_b');
    expect(filtered).not.toContain('admin@example.com');
    const filteredXlsx = await exportAs('Filtered', 'Excel');
    expect(filteredXlsx.suggestedFilename()).toMatch(/\.xlsx$/);
  });

  it('re-import an exported file in update mode', async () => {
    const user = await createUser('e2e_reimport');
    await api('PATCH', `${USERS}${user.id}/`, { comment: 'before import' });
    await openList('?search=e2e_reimport');
    await expect.poll(() => rows().count()).toBe(1);
    await rows().first().locator('.ant-checkbox').click();
    const exported = await textOf(await exportAs(/^Selected \(1\)$/, 'CSV'));
    const file = path.join(tmp, 'reimport.csv');
    fs.writeFileSync(
      file,
      exported.replace('before import', 'after import').replace('E2E e2e_reimport', 'Re-imported'),
    );

    const d = await openDialog('list-import', 'Import');
    await choose(d, 'Update');
    await d.locator('input[type="file"]').setInputFiles(file);
    await d.getByTestId('import-review').waitFor();
    await page.getByTestId('import-button').click();
    await expect.poll(() => page.getByTestId('import-button').textContent(), { timeout: 15_000 }).toBe('Finished');
    await page.getByTestId('import-button').click();
    await d.waitFor({ state: 'hidden' });
    expect(await findUser('e2e_reimport')).toMatchObject({ name: 'Re-imported', comment: 'after import' });
    await expect.poll(() => row('e2e_reimport').textContent()).toContain('Re-imported');
  });

  it('bulk-delete two selected users', async () => {
    await createUser('e2e_bulk_a');
    await createUser('e2e_bulk_b');
    await createUser('e2e_bulk_keep');
    await openList('?search=e2e_bulk_');
    await expect.poll(() => rows().count()).toBe(3);
    await row('e2e_bulk_a').locator('.ant-checkbox').click();
    await row('e2e_bulk_b').locator('.ant-checkbox').click();
    await page.getByTestId('list-more').click();
    await pickMenuItem(page, 'Delete selected');
    await page.getByText('Are you sure to delete the 2 selected rows?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Bulk delete success').waitFor();
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain('e2e_bulk_keep');
    expect(await findUser('e2e_bulk_a')).toBeUndefined();
    expect(await findUser('e2e_bulk_b')).toBeUndefined();
  });

  it('import a CSV where one row has a bad email: that row fails with its reason, the others are saved', async () => {
    const file = path.join(tmp, 'import.csv');
    fs.writeFileSync(
      file,
      [
        '*Name,*Username,*Email',
        'Imp A,e2e_imp_a,imp_a@e2e.test',
        'Imp B,e2e_imp_b,not-an-email',
        'Imp C,e2e_imp_c,imp_c@e2e.test',
        '',
      ].join('\r\n'),
    );
    await openList();
    const d = await openDialog('list-import', 'Import');
    await choose(d, 'Create');
    await d.locator('input[type="file"]').setInputFiles(file);
    await d.getByTestId('import-review').waitFor();
    await page.getByTestId('import-button').click();
    await expect.poll(() => page.getByTestId('import-button').textContent(), { timeout: 15_000 }).toBe('Continue');
    expect(await d.locator('tr[data-status="ok"]').count()).toBe(2);
    const failed = d.locator('tr[data-status="error"]');
    expect(await failed.count()).toBe(1);
    expect(await failed.textContent()).toContain('e2e_imp_b');
    expect(await failed.getByTestId('import-row-error').textContent()).toContain('Email: Enter a valid email address.');
    await d.getByText(/Some rows failed to import/).waitFor();
    await page.waitForTimeout(500); // the progress bar's animation, for the screenshot
    await screenshot(page, 'users-import');
    expect(await findUser('e2e_imp_a')).toBeDefined();
    expect(await findUser('e2e_imp_c')).toBeDefined();
    expect(await findUser('e2e_imp_b')).toBeUndefined();
    await d.getByRole('button', { name: 'Close' }).click();
    await d.waitFor({ state: 'hidden' });
  });

  it('refuse a 31 MB file with the size message without sending it', async () => {
    const file = path.join(tmp, 'big.csv');
    fs.writeFileSync(file, Buffer.alloc(31 * 1024 * 1024, 'a'));
    const parsed: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('render-to-json')) parsed.push(r.url());
    });
    await openList();
    const d = await openDialog('list-import', 'Import');
    await d.locator('input[type="file"]').setInputFiles(file);
    const error = d.locator('.ant-form-item-explain-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Only one csv or xlsx file of at most 30 MB can be imported');
    expect(parsed).toEqual([]);
  });
});

describe('inviting users into an organisation', () => {
  it('invites an existing user from the list header with an org role; the list then shows him', async () => {
    const stamp = Date.now().toString(36);
    const guest = `guest_${stamp}`;
    const org = await api<{ id: string; name: string }>('POST', '/api/v1/orgs/orgs/', { name: `Invite ${stamp}` });
    await createUser(guest); // a member of the default org only
    // Work in the new org, as the navbar's org selector leaves it chosen (remembered per user).
    const enter = async (o: { id: string; name: string }) => {
      await page.evaluate((v) => localStorage.setItem('jms_current_org_admin', v), JSON.stringify(o));
      await ctx.addCookies([{ name: ORG_COOKIE, value: o.id, url: inject('baseURL') }]);
    };
    await enter(org);
    try {
      await openList();
      await page.getByText(`Invite ${stamp}`).first().waitFor();
      await page.locator('[data-testid="resource-list"] .ant-empty').waitFor();
      const d = await openDialog('list-invite', 'Invite users into this organization');
      const pick = async (select: Locator, option: string, typed?: string) => {
        await select.click();
        if (typed) {
          await page.keyboard.type(typed);
          await page.waitForTimeout(800); // the search is sent after a pause in typing
        }
        await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).click();
        await page.keyboard.press('Escape');
      };
      await pick(d.locator('.ant-select').nth(0), `E2E ${guest}(${guest})`, guest);
      // The builtin org roles fit in the first page of the role list.
      await pick(d.locator('.ant-select').nth(1), 'Organization user');
      await expect
        .poll(() => d.locator('.ant-select-selection-item').allTextContents())
        .toEqual([`E2E ${guest}(${guest})`, 'Organization user']);
      await page.waitForTimeout(300);
      await screenshot(page, 'users-invite-dialog');
      await d.getByRole('button', { name: 'Invite' }).click();
      await d.waitFor({ state: 'hidden' });
      // The list refreshes with the invited user, who holds the role in this org.
      await expect.poll(() => row(guest).count()).toBe(1);
      expect(await row(guest).textContent()).toContain('Organization user');
      const invited = await apiCall<{ org_roles: { name: string }[] }[]>(
        ctx,
        'GET',
        `${USERS}?username=${guest}`,
        undefined,
        { 'X-JMS-ORG': org.id },
      );
      expect(invited[0]!.org_roles.map((r) => r.name)).toEqual(['OrgUser']);
    } finally {
      await enter({ id: DEFAULT_ORG_ID, name: 'DEFAULT' });
    }
  });
});
