import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { apiCall, newContext, openAsAdmin, screenshot, signIn } from './browser.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { startSshdAsset, type SshdAsset } from './sshdAsset.ts';

/**
 * The web file manager in Chromium against a real sshd asset (SFTP root /tmp): a user with every
 * action uploads through the file input, sees the file listed, downloads it byte for byte; a user
 * without the delete action finds Delete disabled.
 */
let browser: Browser;
let admin: BrowserContext;
let asset: SshdAsset;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let host: any;
const tag = `gh-fm-${randomUUID().slice(0, 8)}`;
const PASSWORD = 'Fm-user-pass1!';
const local = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-fm-'));

async function user(username: string, actions: string[]): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
  const u = await apiCall<any>(admin, 'POST', '/api/v1/users/users/', {
    name: username,
    username,
    email: `${username}@e2e.test`,
    password_strategy: 'custom',
    password: PASSWORD,
  });
  await apiCall(admin, 'POST', '/api/v1/perms/asset-permissions/', {
    name: `fm-${username}`,
    users: [u.id],
    assets: [host.id],
    accounts: ['@ALL'],
    actions,
  });
}

beforeAll(async () => {
  const opened = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD);
  browser = opened.browser;
  admin = opened.ctx;
  asset = await startSshdAsset(admin, `fm-host-${tag}`);
  host = asset.host;
  await user(`fm_all_${tag.slice(-4)}`, ['all']);
  await user(`fm_ro_${tag.slice(-4)}`, ['connect', 'download']);
}, 60_000);
afterAll(async () => {
  for (const f of fs.readdirSync('/tmp').filter((n) => n.startsWith(tag)))
    fs.rmSync(path.join('/tmp', f), { force: true });
  fs.rmSync(local, { recursive: true, force: true });
  await browser?.close();
  asset?.stop();
});

async function openManager(username: string, lang?: 'zh-hans') {
  const ctx = await newContext(browser, inject('baseURL'));
  const page = await ctx.newPage();
  await page.goto(`/koko/elfinder/sftp/?asset=${host.id}`);
  // Not signed in: the login page, then back here.
  await page.waitForURL('**/core/auth/login/**');
  await signIn(page, username, PASSWORD);
  await page.waitForURL('**/koko/elfinder/sftp/**');
  if (lang) {
    await ctx.addCookies([{ name: 'django_language', value: lang, url: inject('baseURL') }]);
    await page.reload();
  }
  await page.getByTestId('account-select').click();
  await page.locator('.ant-select-item-option').first().click();
  await page.getByRole('button', { name: /Open|打\s*开/ }).click();
  await page.getByRole('table').waitFor();
  return { ctx, page };
}

describe('the web file manager', () => {
  it('uploads a file, lists it and downloads the same bytes', async () => {
    const data = randomBytes(150_000);
    const file = path.join(local, `${tag}.bin`);
    fs.writeFileSync(file, data);
    const { ctx, page } = await openManager(`fm_all_${tag.slice(-4)}`);
    await page.locator('input[type=file]').setInputFiles(file);
    const row = page.getByRole('row', { name: new RegExp(`${tag}\\.bin`) });
    await row.waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('transfer').textContent()).toContain(`${tag}.bin`);
    expect(fs.readFileSync(`/tmp/${tag}.bin`).equals(data)).toBe(true);
    await screenshot(page, 'file-manager-en');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${tag}.bin`);
    const saved = path.join(local, 'downloaded.bin');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).equals(data)).toBe(true);
    await ctx.close();
  }, 90_000);

  // antd puts a space between the two characters of a two-character Chinese button label.
  it('disables Delete and upload without the actions, and says why', async () => {
    fs.writeFileSync(`/tmp/${tag}-ro.txt`, 'read only');
    const { ctx, page } = await openManager(`fm_ro_${tag.slice(-4)}`, 'zh-hans');
    const row = page.getByRole('row', { name: new RegExp(`${tag}-ro\\.txt`) });
    await row.waitFor();
    await expect.poll(() => row.getByRole('button', { name: /删\s*除/ }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: /下\s*载/ }).isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: '新建文件夹' }).isDisabled()).toBe(true);
    await row.getByRole('button', { name: /删\s*除/ }).hover({ force: true });
    await screenshot(page, 'file-manager-zh');
    expect(fs.existsSync(`/tmp/${tag}-ro.txt`)).toBe(true);
    await ctx.close();
  }, 90_000);

  it('sets the SSH public key from the profile page and shows its fingerprint', async () => {
    const ctx = await newContext(browser, inject('baseURL'));
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await signIn(page, `fm_all_${tag.slice(-4)}`, PASSWORD);
    await page.waitForURL('**/ui/**');
    // Past the first sign-in's guide (a new user is asked for a new password first).
    await apiCall(ctx, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
    await page.goto('/ui/profile/setting?activeTab=publicKey');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    const form = page.getByTestId('public-key-form');
    await form.getByRole('textbox').fill('not a key');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Not a valid ssh public key').waitFor();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'fm@e2e', '-f', path.join(local, 'id')]);
    const key = fs.readFileSync(path.join(local, 'id.pub'), 'utf8').trim();
    await form.getByRole('textbox').fill(key);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/).waitFor();
    await screenshot(page, 'profile-public-key-en');
    await ctx.close();
  }, 60_000);
});
