import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signIn, signInAdmin } from './browser.ts';
import { startSshdAsset, type SshdAsset } from './sshdAsset.ts';

/**
 * The web terminal (/luna/) end to end against a real OpenSSH asset: from "My assets" the connect
 * button opens the terminal in a new tab, a command runs there and is then listed among the
 * session's commands; a permission without copy shows copy as not permitted and refuses it; the
 * `?login_to=` deep link opens the connect dialog where @INPUT asks the username and password.
 */
let browser: Browser;
let admin: BrowserContext;
let user: BrowserContext;
let full: SshdAsset;
let bare: SshdAsset;
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const PASSWORD = 'Luna-user-pass1!';
const stamp = Date.now().toString(36);
const names = {
  user: `lu_${stamp}`,
  node: `e2e-luna-${stamp}`,
  full: `luna-full-${stamp}`,
  bare: `luna-bare-${stamp}`,
};
type Row = Record<string, unknown> & { id: string };

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await newContext(browser, inject('baseURL'));
  await signInAdmin(await admin.newPage(), E2E_ADMIN_PASSWORD);
  const node = await api<Row>('POST', '/api/v1/assets/nodes/', { full_value: names.node });
  full = await startSshdAsset(admin, names.full, DEFAULT_ORG, { nodes: [node.id] });
  bare = await startSshdAsset(admin, names.bare, DEFAULT_ORG, { nodes: [node.id] });
  const u = await api<Row>('POST', '/api/v1/users/users/', {
    name: `Luna ${stamp}`,
    username: names.user,
    email: `${names.user}@e2e.test`,
    password_strategy: 'custom',
    password: PASSWORD,
  });
  const perm = (name: string, asset: string, accounts: string[], actions: string[]) =>
    api('POST', '/api/v1/perms/asset-permissions/', { name, users: [u.id], assets: [asset], accounts, actions });
  await perm(`luna-full-${stamp}`, full.host.id, ['@ALL', '@INPUT'], ['connect', 'copy', 'paste']);
  await perm(`luna-bare-${stamp}`, bare.host.id, ['@ALL'], ['connect']);
  user = await newContext(browser, inject('baseURL'), { width: 1440, height: 860 });
  const page = await user.newPage();
  await page.goto('/core/auth/login/');
  await signIn(page, names.user, PASSWORD);
  await page.waitForURL('**/ui/**');
  await apiCall(user, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
  await page.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  full?.stop();
  bare?.stop();
});

/** The text the terminal shows (xterm's DOM rows). */
const activePane = (page: Page) => page.locator('[role="tabpanel"][aria-hidden="false"] [data-testid="terminal-pane"]');
const screen = (page: Page) => activePane(page).locator('.xterm-rows').innerText();

/**
 * Waits for the session just asked for: first the connect dialog gone (until then the tab shown
 * may still be the previous session's, already connected), then its pane connected with a prompt.
 */
async function connected(page: Page): Promise<string> {
  const dialog = page.locator('.ant-modal-wrap');
  for (let waited = 0; (await dialog.count()) > 0; waited += 100) {
    if (waited > 30_000) throw new Error(`the connect dialog stayed open: ${await dialog.first().innerText()}`);
    await page.waitForTimeout(100);
  }
  const pane = page.locator(
    '[role="tabpanel"][aria-hidden="false"] [data-testid="terminal-pane"][data-phase="connected"]',
  );
  await pane.waitFor({ timeout: 30_000 }).catch(async (e: Error) => {
    const panes = await page
      .locator('[data-testid="terminal-pane"]')
      .evaluateAll((els) => els.map((el) => `${el.getAttribute('data-phase')} ${el.parentElement?.className}`));
    await screenshot(page, 'luna-debug');
    throw new Error(`${e.message}\npanes: ${panes.join(' | ')}\n${await page.locator('body').innerText()}`);
  });
  await expect.poll(() => screen(page), { timeout: 30_000 }).toContain('gh$');
  return (await pane.getAttribute('data-session'))!;
}

/** Opens the test's node in the granted tree (its assets load with it). */
async function openNode(page: Page): Promise<void> {
  await page.getByTestId('luna-tree').getByTestId('tree-node').filter({ hasText: names.node }).click();
}

async function run(page: Page, command: string): Promise<void> {
  await activePane(page).getByTestId('terminal').click();
  await page.keyboard.type(command, { delay: 20 });
  await page.keyboard.press('Enter');
}

describe('the web terminal', () => {
  let luna: Page;

  it('opens from My assets in a new tab, runs a command, and the command is in the session’s commands', async () => {
    const page = await user.newPage();
    await page.goto('/ui/workbench/assets');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    const row = page.locator('tr.ant-table-row', { hasText: names.full });
    await row.waitFor();
    await row.getByTestId('account-picker').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `${full.account.name}(${full.account.username})` })
      .click();
    const [opened] = await Promise.all([user.waitForEvent('page'), row.getByTestId('connect-button').click()]);
    luna = opened;
    await luna.waitForURL(/\/luna\/\?login_to=/);
    expect(new URL(luna.url()).searchParams.get('login_account')).toBe(full.account.id);
    const session = await connected(luna);
    expect(await luna.getByTestId('clipboard-copy').textContent()).toBe('Copy allowed');
    const n = 1000 + Math.floor(Math.random() * 9000);
    await run(luna, `echo gatehouse-$((${n}+1))`);
    await expect.poll(() => screen(luna), { timeout: 20_000 }).toContain(`gatehouse-${n + 1}`);
    await openNode(luna);
    await luna.getByTestId('luna-tree').getByText(names.bare).waitFor();
    await screenshot(luna, 'luna-one-tab');

    // The command is recorded for the session (read by the admin, as an auditor would).
    await expect
      .poll(
        async () =>
          (await api<{ input: string }[]>('GET', `/api/v1/terminal/commands/?session_id=${session}`)).map(
            (c) => c.input,
          ),
        { timeout: 20_000 },
      )
      .toContain(`echo gatehouse-$((${n}+1))`);
    // The page itself reads the same list with the user's session: the user has no audit permission.
    const own = await luna.evaluate(
      async (id) => (await fetch(`/api/v1/terminal/commands/?session_id=${id}`)).status,
      session,
    );
    expect(own).toBe(403);
  });

  it('shows copy as not permitted and refuses it when the permission lacks copy', async () => {
    await luna.getByTestId('luna-tree').getByText(names.bare).click();
    const dialog = luna.getByTestId('connect-form');
    await dialog.waitFor();
    // One account: it is chosen already.
    await luna.getByRole('button', { name: 'Connect', exact: true }).click();
    await connected(luna);
    expect(await luna.getByTestId('session-tab').count()).toBe(2);
    expect(await activePane(luna).getByTestId('clipboard-copy').textContent()).toBe('Copy not permitted');
    expect(await activePane(luna).getByTestId('clipboard-paste').textContent()).toBe('Paste not permitted');
    await run(luna, 'echo second-tab-$((2*21))');
    await expect.poll(() => screen(luna), { timeout: 20_000 }).toContain('second-tab-42');
    await screenshot(luna, 'luna-two-tabs-en');
    // Selecting text would copy it: here the page says it is not permitted.
    const box = (await activePane(luna).getByTestId('terminal').boundingBox())!;
    await luna.mouse.dblclick(box.x + 60, box.y + 14);
    await luna.getByText('Copying from this session is not permitted by your permission.').waitFor();

    // The shell ends: the reason is written in the terminal and the tab offers Reconnect (a new token).
    await run(luna, 'exit');
    await expect.poll(() => screen(luna), { timeout: 20_000 }).toContain('The session is closed.');
    await luna.getByTestId('reconnect').click();
    await connected(luna);
    expect(await screen(luna)).not.toContain('second-tab-42');
  });

  it('stars an asset from the tree: Favourites counts and lists it, and unstarring takes it out', async () => {
    const page = await user.newPage();
    await page.goto('/luna/');
    const tree = page.getByTestId('luna-tree');
    const favorites = tree.locator('[data-testid="tree-node"][data-key="n:favorite"]');
    await expect.poll(() => favorites.textContent(), { timeout: 20_000 }).toBe('Favorite (0)');
    await openNode(page);
    const rows = tree
      .locator('.ant-tree-treenode')
      .filter({ has: page.getByTestId('tree-asset').filter({ hasText: names.full }) });
    await rows.first().hover();
    await rows.first().getByRole('button', { name: 'Favourite', exact: true }).click();
    await expect.poll(() => favorites.textContent(), { timeout: 20_000 }).toBe('Favorite (1)');
    // The star is not the asset: no connect dialog opened.
    expect(await page.getByTestId('connect-form').count()).toBe(0);
    await favorites.click();
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    await screenshot(page, 'luna-favorite-star');
    // Unstarred from under Favourites: the count and the list follow.
    await rows.first().hover();
    await rows.first().getByRole('button', { name: 'Remove from favourites' }).click();
    await expect.poll(() => favorites.textContent(), { timeout: 20_000 }).toBe('Favorite (0)');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
    expect(await apiCall<unknown[]>(user, 'GET', '/api/v1/assets/favorite-assets/')).toEqual([]);
    await page.close();
  });

  it('opens the connect dialog from ?login_to= and logs in with a typed @INPUT login', async () => {
    const page = await user.newPage();
    await page.goto(`/luna/?login_to=${full.host.id}`);
    await page.getByTestId('connect-form').waitFor();
    // The link names the asset by id: the dialog finds its name among the grants.
    await page.locator('.ant-modal-title').getByText(`Connect ${names.full}`).waitFor();
    await page.getByTestId('connect-account').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'Manual input' })
      .click();
    await page.getByTestId('connect-username').fill(full.sshd.username);
    await page.getByTestId('connect-password').fill(full.sshd.password);
    await screenshot(page, 'luna-connect-dialog');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await connected(page);
    await run(page, 'echo typed-$((40+2))');
    await expect.poll(() => screen(page), { timeout: 20_000 }).toContain('typed-42');
    await page.close();
  });

  it('reads the same in Chinese, and a signed-out visit goes to the login page and back', async () => {
    const zh = await newContext(browser, inject('baseURL'), { width: 1440, height: 860, locale: 'zh-CN' });
    await zh.addCookies((await user.cookies()).filter((c) => c.name !== 'django_language'));
    const page = await zh.newPage();
    await page.goto('/luna/');
    await page.getByText('我的资产').waitFor();
    await openNode(page);
    await page.getByTestId('luna-tree').getByText(names.full).click();
    await page.getByTestId('connect-account').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `${full.account.name}(` })
      .click();
    await page
      .getByRole('button', { name: '连 接' })
      .or(page.getByRole('button', { name: '连接' }))
      .click();
    await connected(page);
    await run(page, 'ls / | head -3; echo zh-$((40+2))');
    await expect.poll(() => screen(page), { timeout: 20_000 }).toContain('zh-42');
    await page.getByTestId('luna-tree').getByText(names.bare).click();
    await page
      .getByRole('button', { name: '连 接' })
      .or(page.getByRole('button', { name: '连接' }))
      .click();
    await connected(page);
    await run(page, 'echo zh-tab-$((6*7))');
    await expect.poll(() => screen(page), { timeout: 20_000 }).toContain('zh-tab-42');
    await screenshot(page, 'luna-two-tabs-zh');
    await zh.close();

    const anon = await newContext(browser, inject('baseURL'));
    const p = await anon.newPage();
    await p.goto(`/luna/?login_to=${full.host.id}`);
    await p.waitForURL(/\/core\/auth\/login\/\?next=/);
    await signIn(p, names.user, PASSWORD);
    await p.waitForURL(/\/luna\/\?login_to=/);
    await p.getByTestId('connect-form').waitFor();
    await anon.close();
  });
});
