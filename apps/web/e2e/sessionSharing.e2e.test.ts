import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, newUserContext, screenshot, signInAdmin } from './browser.ts';
import { startSshdAsset, type SshdAsset } from './sshdAsset.ts';

/**
 * Session sharing end to end against a real OpenSSH asset: the owner shares the open session from
 * the web terminal (writable, for one invited colleague), the colleague opens the link, is refused
 * a wrong code, joins with the right one, sees the screen and types a command that runs in the
 * owner's session; the owner is told of the join; stopping the sharing sends the colleague away.
 */
let browser: Browser;
let admin: BrowserContext;
let owner: BrowserContext;
let colleague: BrowserContext;
let asset: SshdAsset;
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const PASSWORD = 'Share-user-pass1!';
const stamp = Date.now().toString(36);
const names = { owner: `so_${stamp}`, colleague: `sc_${stamp}`, asset: `share-${stamp}` };

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

const userContext = (username: string) =>
  newUserContext(browser, inject('baseURL'), admin, DEFAULT_ORG, {
    username,
    name: `Share ${username}`,
    password: PASSWORD,
  });

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newContext(browser, inject('baseURL'));
  await signInAdmin(await admin.newPage(), E2E_ADMIN_PASSWORD);
  asset = await startSshdAsset(admin, names.asset, DEFAULT_ORG);
  const o = await userContext(names.owner);
  owner = o.context;
  colleague = (await userContext(names.colleague)).context;
  await api('POST', '/api/v1/perms/asset-permissions/', {
    name: `share-${stamp}`,
    users: [o.id],
    assets: [asset.host.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  asset?.stop();
});

const ownerScreen = (page: Page) =>
  page.locator('[role="tabpanel"][aria-hidden="false"] [data-testid="terminal-pane"] .xterm-rows').innerText();

describe('sharing a web terminal session', () => {
  it('invites a colleague who joins with the code, types into the session, and is sent away when it stops', async () => {
    const luna = await owner.newPage();
    await luna.goto(`/luna/?login_to=${asset.host.id}&login_account=${asset.account.id}`);
    await luna.locator('[data-testid="terminal-pane"][data-phase="connected"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => ownerScreen(luna), { timeout: 30_000 }).toContain('gh$');

    await luna.getByTestId('share-open').click();
    await luna.getByTestId('share-form').waitFor();
    await luna.getByTestId('share-permission').getByText('Writable').click();
    await luna.getByTestId('share-users').click();
    await luna.keyboard.type(names.colleague);
    await luna
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `(${names.colleague})` })
      .click();
    await luna.keyboard.press('Escape');
    await screenshot(luna, 'luna-share-dialog');
    await luna.getByTestId('share-create').click();
    const url = (await luna.getByTestId('share-url').innerText()).trim();
    const code = (await luna.getByTestId('share-verify-code').innerText()).trim();
    expect(url).toMatch(/\/luna\/share\/[0-9a-f-]+\/$/);
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    await screenshot(luna, 'luna-share-created');

    const joined = await colleague.newPage();
    await joined.goto(new URL(url).pathname);
    await joined.getByTestId('share-code').fill('WRONG1');
    await joined.getByTestId('share-join').click();
    await expect.poll(() => joined.getByTestId('share-error').innerText()).toBe('The verify code is wrong.');
    await screenshot(joined, 'share-page-wrong-code');
    await joined.getByTestId('share-code').fill(code.toLowerCase());
    await joined.getByTestId('share-join').click();
    await expect
      .poll(() => joined.getByTestId('monitor-status').innerText(), { timeout: 20_000 })
      .toBe('Live · you can type');
    await expect.poll(() => joined.locator('.xterm-rows').innerText(), { timeout: 20_000 }).toContain('gh$');
    await luna.getByText(`joined this session (Writable).`).waitFor({ timeout: 20_000 });

    await joined.getByTestId('monitor-screen').click();
    await joined.keyboard.type('echo from-colleague-$((40+2))', { delay: 20 });
    await joined.keyboard.press('Enter');
    await expect.poll(() => ownerScreen(luna), { timeout: 20_000 }).toContain('from-colleague-42');
    await expect
      .poll(() => joined.locator('.xterm-rows').innerText(), { timeout: 20_000 })
      .toContain('from-colleague-42');
    await screenshot(joined, 'share-page-joined');

    // The dialog still shows the sharing: stopping it there sends the colleague away.
    await luna.getByTestId('share-stop').click();
    await luna.getByText('The sharing is stopped').waitFor();
    await screenshot(luna, 'luna-share-stopped');
    await luna.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(() => joined.getByTestId('monitor-message').innerText(), { timeout: 20_000 })
      .toBe('This sharing has been stopped.');
    await luna.getByText('left this session.').first().waitFor({ timeout: 20_000 });
    await joined.close();
    await luna.close();
  });
});
