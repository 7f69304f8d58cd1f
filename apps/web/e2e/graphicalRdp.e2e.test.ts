import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { startRdpServer, type RdpServer } from '@gatehouse/server/test-support/rdpServer.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signIn, signInAdmin } from './browser.ts';

/**
 * An RDP desktop in the web terminal (docs/graphical.md, "RDP") against xrdp on loopback
 * (apps/server/test-support/rdpServer.ts): the user opens it from the tree, types into the far
 * desktop's xterm, then the browser goes away mid-session and no helper (Xvfb, xfreerdp, x11vnc)
 * of the server's is left running.
 */
let browser: Browser;
let admin: BrowserContext;
let user: BrowserContext;
let rdp: RdpServer;
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const PASSWORD = 'Rdp-user-pass1!';
const stamp = Date.now().toString(36);
const names = { user: `rdp_${stamp}`, host: `windows-${stamp}` };
type Row = Record<string, unknown> & { id: string };

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

/** Pids of processes whose command line names the RDP server's port (the session's xfreerdp) or its private directory. */
function helpers(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const cmd = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8');
        return cmd.includes(`/v:127.0.0.1:${rdp.port}`) || (cmd.includes('gh-rdp-') && /Xvfb|x11vnc/.test(cmd));
      } catch {
        return false;
      }
    })
    .map(Number);
}

beforeAll(async () => {
  rdp = await startRdpServer();
  browser = await launchBrowser();
  admin = await newContext(browser, inject('baseURL'));
  await signInAdmin(await admin.newPage(), E2E_ADMIN_PASSWORD);
  const host = await api<Row>('POST', '/api/v1/assets/hosts/', {
    name: names.host,
    address: '127.0.0.1',
    platform: 'Windows',
    protocols: [{ name: 'rdp', port: rdp.port }],
  });
  await api('POST', '/api/v1/accounts/accounts/', { asset: host.id, username: rdp.username, secret: rdp.password });
  const u = await api<Row>('POST', '/api/v1/users/users/', {
    name: `Rdp ${stamp}`,
    username: names.user,
    email: `${names.user}@e2e.test`,
    password_strategy: 'custom',
    password: PASSWORD,
  });
  await api('POST', '/api/v1/perms/asset-permissions/', {
    name: `rdp-${stamp}`,
    users: [u.id],
    assets: [host.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
  user = await newContext(browser, inject('baseURL'), { width: 1280, height: 800 });
  const page = await user.newPage();
  await page.goto('/core/auth/login/');
  await signIn(page, names.user, PASSWORD);
  await page.waitForURL('**/ui/**');
  await apiCall(user, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
  await page.close();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rdp?.stop();
});

describe('an RDP desktop in the web terminal', () => {
  it('types into the far desktop, and leaves no helper process when the browser goes away', async () => {
    const luna = await user.newPage();
    await luna.goto('/luna/');
    await luna.getByTestId('luna-tree').getByText(names.host).click();
    await luna.getByTestId('connect-protocol').getByText('RDP').waitFor();
    await luna.getByTestId('connect-ok').click();
    const live = luna.locator('[data-testid="graphical-pane"][data-phase="connected"]');
    await live.waitFor({ timeout: 30_000 });
    const canvas = live.locator('canvas');
    await canvas.waitFor();
    await expect.poll(() => helpers().length).toBe(3);
    // Connect only: no drive is redirected to the asset (upload/download would add one).
    const cmdlines = helpers().map((p) => fs.readFileSync(`/proc/${p}/cmdline`, 'utf8'));
    expect(cmdlines.some((c) => c.includes('xfreerdp'))).toBe(true);
    expect(cmdlines.some((c) => c.includes('/drive:'))).toBe(false);
    await canvas.click({ position: { x: 200, y: 100 } });
    // Keys reach the far desktop once the chain (x11vnc -> xfreerdp -> xrdp) has settled: an Enter
    // that draws a new prompt says so, then the command is typed.
    const lit = () =>
      canvas.evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i]! > 0x80 && d[i + 1]! > 0x80 && d[i + 2]! > 0x80) n++;
        return n;
      });
    const before = await lit();
    await expect
      .poll(
        async () => {
          await luna.keyboard.press('Enter');
          return lit();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThan(before);
    await luna.keyboard.type('echo typed-over-rdp > rdp-marker', { delay: 40 });
    await luna.keyboard.press('Enter');
    const marker = path.join(rdp.desktop.dir, 'rdp-marker');
    await expect
      .poll(() => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''), { timeout: 20_000 })
      .toBe('typed-over-rdp\n');
    await screenshot(luna, 'graphical-rdp-live');
    // The whole browser context goes, mid-session.
    await user.close();
    await expect.poll(() => helpers(), { timeout: 20_000 }).toEqual([]);
  });
});
