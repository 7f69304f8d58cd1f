import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startVncServer, type VncServer } from '@gatehouse/server/test-support/vncServer.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signIn, signInAdmin } from './browser.ts';

/**
 * A VNC desktop in the web terminal (docs/graphical.md) against a real TigerVNC server running an
 * xterm (apps/server/test-support/vncServer.ts): from My assets the connect button opens /luna/,
 * whose dialog offers the asset's SSH and VNC; VNC opens noVNC in the tab, keys typed in the
 * browser run in the xterm's shell (a file it writes), and the recording replays in the player.
 */
let browser: Browser;
let admin: BrowserContext;
let user: BrowserContext;
let vnc: VncServer;
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const PASSWORD = 'Gui-user-pass1!';
const stamp = Date.now().toString(36);
const names = { user: `gui_${stamp}`, host: `desktop-${stamp}` };
type Row = Record<string, unknown> & { id: string };
let host: Row;

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

beforeAll(async () => {
  vnc = await startVncServer({ width: 1024, height: 640 });
  browser = await launchBrowser();
  admin = await newContext(browser, inject('baseURL'));
  await signInAdmin(await admin.newPage(), E2E_ADMIN_PASSWORD);
  host = await api<Row>('POST', '/api/v1/assets/hosts/', {
    name: names.host,
    address: '127.0.0.1',
    platform: 'Linux',
    protocols: [
      { name: 'ssh', port: 22 },
      { name: 'vnc', port: vnc.port },
    ],
  });
  await api<Row>('POST', '/api/v1/accounts/accounts/', {
    asset: host.id,
    username: 'desktop',
    secret: vnc.password,
  });
  const u = await api<Row>('POST', '/api/v1/users/users/', {
    name: `Gui ${stamp}`,
    username: names.user,
    email: `${names.user}@e2e.test`,
    password_strategy: 'custom',
    password: PASSWORD,
  });
  await api('POST', '/api/v1/perms/asset-permissions/', {
    name: `gui-${stamp}`,
    users: [u.id],
    assets: [host.id],
    accounts: ['@ALL'],
    actions: ['connect', 'copy', 'paste'],
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
  vnc?.stop();
});

const pane = (page: Page) => page.locator('[role="tabpanel"][aria-hidden="false"] [data-testid="graphical-pane"]');

describe('a VNC desktop in the web terminal', () => {
  let session = '';

  it('opens from My assets, types into the desktop and shows it', async () => {
    const page = await user.newPage();
    await page.goto('/ui/workbench/assets');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    const row = page.locator('tr.ant-table-row', { hasText: names.host });
    await row.waitFor();
    const [luna] = await Promise.all([user.waitForEvent('page'), row.getByTestId('connect-button').click()]);
    await luna.waitForURL(/\/luna\/\?login_to=/);
    // The asset has SSH and VNC: the dialog asks which.
    const vncChoice = luna.getByTestId('connect-protocol').getByText('VNC');
    await vncChoice.waitFor();
    await vncChoice.click();
    await luna.getByTestId('connect-ok').click();
    const live = luna.locator(
      '[role="tabpanel"][aria-hidden="false"] [data-testid="graphical-pane"][data-phase="connected"]',
    );
    await live.waitFor({ timeout: 30_000 });
    session = (await live.getAttribute('data-session'))!;
    const canvas = pane(luna).locator('canvas');
    await canvas.waitFor();
    // Typing goes to the xterm's shell on the desktop.
    await canvas.click({ position: { x: 200, y: 100 } });
    await luna.keyboard.type('echo typed-in-browser > marker', { delay: 30 });
    await luna.keyboard.press('Enter');
    const marker = path.join(vnc.dir, 'marker');
    await expect
      .poll(() => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''), { timeout: 20_000 })
      .toBe('typed-in-browser\n');
    expect(await pane(luna).getByTestId('clipboard-paste').textContent()).toBe('Paste allowed');
    await screenshot(luna, 'graphical-live');
    // An auditor watches it live: the stream so far, then what follows.
    const monitor = await admin.newPage();
    await monitor.goto(`/luna/monitor/${session}/`);
    const watched = monitor.getByTestId('monitor-screen');
    await watched.locator('canvas').waitFor();
    await expect.poll(() => watched.getAttribute('data-started')).toBe('true');
    await luna.keyboard.type('echo watched', { delay: 30 });
    await luna.keyboard.press('Enter');
    await screenshot(monitor, 'graphical-monitor');
    await monitor.close();
    await luna.close();
    // Closing the page ends the session.
    await expect
      .poll(
        async () => (await api<{ is_finished: boolean }>('GET', `/api/v1/terminal/sessions/${session}/`)).is_finished,
      )
      .toBe(true);
  });

  it('replays the recording in the player', async () => {
    const page = await admin.newPage();
    await page.goto(`/luna/replay/${session}/`);
    const screen = page.getByTestId('replay-screen');
    await screen.locator('canvas').waitFor();
    await expect
      .poll(async () => Number(await screen.getAttribute('data-frames')), { timeout: 20_000 })
      .toBeGreaterThan(1);
    // Jump to the end: everything decoded from the start shows the typed line.
    await page.getByTestId('replay-timeline').evaluate((el: HTMLInputElement) => {
      el.value = el.max;
      el.dispatchEvent(new Event('input'));
    });
    const lit = () =>
      screen.locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, Math.min(c.height, 200)).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i]! > 0x80 && d[i + 1]! > 0x80 && d[i + 2]! > 0x80) n++;
        return n;
      });
    await expect.poll(lit, { timeout: 20_000 }).toBeGreaterThan(200);
    await screenshot(page, 'graphical-replay');
    await page.close();
  });
});
