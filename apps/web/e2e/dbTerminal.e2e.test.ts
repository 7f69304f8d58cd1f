import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { dbAsset, scratchPg, type ScratchDb } from '@gatehouse/server/test-support/dbAssets.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signIn, signInAdmin } from './browser.ts';

/**
 * A database session in the browser against the machine's PostgreSQL: from My assets the connect
 * button opens `/luna/` in a new tab, where `psql` runs behind the database proxy; a statement's
 * result shows, the statement is in the session's commands, and the auditor replays the session
 * with the statement in the player's list.
 */
let browser: Browser;
let admin: BrowserContext;
let user: BrowserContext;
let db: ScratchDb;
let asset: { id: string; name: string };
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const PASSWORD = 'Db-user-pass1!';
const stamp = Date.now().toString(36);
const names = { user: `dbu_${stamp}`, asset: `pg-${stamp}` };
type Row = Record<string, unknown> & { id: string };

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

beforeAll(async () => {
  db = await scratchPg();
  browser = await launchBrowser();
  admin = await newContext(browser, inject('baseURL'));
  await signInAdmin(await admin.newPage(), E2E_ADMIN_PASSWORD);
  const made = await dbAsset((url, body) => api('POST', url, body), 'postgresql', db);
  asset = made.asset;
  await api('PATCH', `/api/v1/assets/databases/${asset.id}/`, { name: names.asset });
  const u = await api<Row>('POST', '/api/v1/users/users/', {
    name: `Db ${stamp}`,
    username: names.user,
    email: `${names.user}@e2e.test`,
    password_strategy: 'custom',
    password: PASSWORD,
  });
  await api('POST', '/api/v1/perms/asset-permissions/', {
    name: `db-${stamp}`,
    users: [u.id],
    assets: [asset.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
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
  await db?.drop();
});

const activePane = (page: Page) => page.locator('[role="tabpanel"][aria-hidden="false"] [data-testid="terminal-pane"]');
const screen = (page: Page) => activePane(page).locator('.xterm-rows').innerText();

describe('a database in the web terminal', () => {
  it('opens psql from My assets, runs a statement, and the session replays with it', async () => {
    const page = await user.newPage();
    await page.goto('/ui/workbench/assets');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    const row = page.locator('tr.ant-table-row', { hasText: names.asset });
    await row.waitFor();
    const [luna] = await Promise.all([user.waitForEvent('page'), row.getByTestId('connect-button').click()]);
    await luna.waitForURL(/\/luna\/\?login_to=/);
    const pane = luna.locator(
      '[role="tabpanel"][aria-hidden="false"] [data-testid="terminal-pane"][data-phase="connected"]',
    );
    await pane.waitFor({ timeout: 30_000 });
    await expect.poll(() => screen(luna), { timeout: 30_000 }).toMatch(/=> /);
    const session = (await pane.getAttribute('data-session'))!;
    await activePane(luna).getByTestId('terminal').click();
    await luna.keyboard.type('select v from t order by id;', { delay: 20 });
    await luna.keyboard.press('Enter');
    await expect.poll(() => screen(luna), { timeout: 20_000 }).toContain('(3 rows)');
    await screenshot(luna, 'luna-postgresql');
    await luna.keyboard.type('\\q', { delay: 20 });
    await luna.keyboard.press('Enter');
    await expect
      .poll(async () => (await api<Row>('GET', `/api/v1/terminal/sessions/${session}/`)).has_replay, {
        timeout: 20_000,
      })
      .toBe(true);
    const s = await api<Row>('GET', `/api/v1/terminal/sessions/${session}/`);
    expect(s.protocol).toBe('postgresql');
    const commands = await api<{ input: string }[]>('GET', `/api/v1/terminal/commands/?session_id=${session}`);
    expect(commands.map((c) => c.input)).toContain('select v from t order by id');

    const replay = await admin.newPage();
    await replay.goto(`/luna/replay/${session}`);
    await replay
      .getByTestId('replay-commands')
      .getByRole('button', { name: /select v from t/ })
      .waitFor();
    await expect
      .poll(() => replay.getByTestId('replay-screen').locator('.xterm-rows').textContent(), { timeout: 30_000 })
      .toContain('(3 rows)');
    await screenshot(replay, 'replay-postgresql');
  }, 120_000);
});
