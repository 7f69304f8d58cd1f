import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signInAdmin } from './browser.ts';
import { startSshdAsset, type SshdAsset } from './sshdAsset.ts';

/**
 * Session audit in Chromium, with sessions recorded through the gateway against a real OpenSSH
 * (the web terminal's socket driven from the test, as a user's browser would): the replay player
 * (commands that seek, search), the live monitor from a second browser (output, terminate), the
 * sessions and commands pages. Screenshots in English and Chinese.
 */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let asset: SshdAsset;
let baseURL: string;
let hostId = '';
let accountName = '';

interface Row {
  [k: string]: unknown;
  id: string;
}

const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);

beforeAll(async () => {
  baseURL = inject('baseURL');
  browser = await launchBrowser();
  ctx = await newContext(browser, baseURL);
  page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
  asset = await startSshdAsset(ctx, 'audit-sshd');
  hostId = asset.host.id;
  accountName = asset.account.name;
  const me = await api<Row>('GET', '/api/v1/users/profile/');
  await api('POST', '/api/v1/perms/asset-permissions/', {
    name: 'audit-e2e',
    users: [me.id],
    assets: [hostId],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
}, 90_000);
afterAll(async () => {
  await browser?.close();
  asset?.stop();
});

/** A web-terminal session through the gateway, driven like the terminal page drives it. */
async function terminal() {
  const token = await api<Row>('POST', '/api/v1/authentication/connection-token/', {
    asset: hostId,
    account: accountName,
    protocol: 'ssh',
    connect_method: 'web_cli',
  });
  const ws = new WebSocket(`${baseURL.replace(/^http/, 'ws')}/koko/ws/terminal/?token=${token.id}&cols=100&rows=30`);
  let text = '';
  let id = '';
  let closeReason = '';
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { type: string; data?: unknown; id?: string; reason?: string };
    if (m.type === 'CONNECT') id = String(m.id);
    if (m.type === 'TERMINAL_DATA') text += String(m.data);
    if (m.type === 'CLOSE') closeReason = String(m.reason);
  });
  const closed = new Promise<void>((r) => ws.once('close', () => r()));
  const waitFor = async (test: () => boolean, what: string) => {
    for (let waited = 0; !test(); waited += 50) {
      if (waited > 20_000) throw new Error(`no ${what}: ${text.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const type = async (s: string) => {
    for (const ch of s) {
      ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: ch }));
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  /** Runs one line and waits for its marker, then for the next prompt (a user types at the prompt). */
  const run = async (line: string, marker: string) => {
    const from = text.length;
    await type(line);
    // Enter once the line is echoed, as someone watching the screen does.
    await waitFor(() => text.slice(from).includes(line), `the echo of ${line}`);
    await type('\r');
    await waitFor(() => text.slice(from).includes(marker), marker);
    const after = text.indexOf(marker, from) + marker.length;
    await waitFor(() => text.slice(after).includes('gh$ '), 'the next prompt');
  };
  await waitFor(() => Boolean(id) && text.includes('gh$ '), 'the prompt');
  return { ws, id: () => id, text: () => text, run, closed, reason: () => closeReason, waitFor };
}

const real = async (p: Page) => Number(await p.getByTestId('replay-clock').getAttribute('data-real'));

describe('session audit', () => {
  let recorded = '';
  let commands: { input: string; timestamp: number; timestamp_ms: number }[] = [];
  let start = 0;

  it('replays a recorded session: commands seek the player, search finds output', async () => {
    const s = await terminal();
    await s.run('echo alpha-$((40+2))', 'alpha-42');
    await s.run('sleep 4', 'sleep 4');
    await s.run('echo beta-$((50+5))', 'beta-55');
    await s.run('sleep 3', 'sleep 3');
    await s.run('echo gamma-$((60+6))', 'gamma-66');
    recorded = s.id();
    s.ws.close();
    await s.closed;
    await expect
      .poll(async () => (await api<Row>('GET', `/api/v1/terminal/sessions/${recorded}/`)).has_replay, {
        timeout: 20_000,
      })
      .toBe(true);
    commands = await api<{ input: string; timestamp: number; timestamp_ms: number }[]>(
      'GET',
      `/api/v1/terminal/commands/?session_id=${recorded}&order=timestamp`,
    );
    expect(commands.map((c) => c.input)).toEqual([
      'echo alpha-$((40+2))',
      'sleep 4',
      'echo beta-$((50+5))',
      'sleep 3',
      'echo gamma-$((60+6))',
    ]);
    start = Math.floor(
      Date.parse(String((await api<Row>('GET', `/api/v1/terminal/sessions/${recorded}/`)).date_start)) / 1000,
    );

    await page.goto(`/luna/replay/${recorded}`);
    const list = page.getByTestId('replay-commands');
    await list.getByRole('button', { name: /gamma/ }).waitFor();
    // It plays by itself; the whole session (about 8 s, idle over 2 s compressed) reaches its end.
    const screen = page.getByTestId('replay-screen');
    await expect.poll(() => screen.locator('.xterm-rows').textContent(), { timeout: 30_000 }).toContain('gamma-66');

    // A click on a command jumps to the moment it ran (back, then forward), with the screen of then.
    await list.getByRole('button', { name: /alpha/ }).click();
    // Pause where the click put us: the player may still be playing, or may already have stopped
    // at the end (then a click on the button would start it again).
    const play = page.getByTestId('replay-play');
    if ((await play.textContent()) === 'Pause') await play.click();
    await expect.poll(() => play.textContent()).toBe('Play');
    const alphaAt = commands[0]!.timestamp_ms / 1000 - start;
    const betaAt = commands[2]!.timestamp_ms / 1000 - start;
    expect(betaAt - alphaAt).toBeGreaterThanOrEqual(3);
    expect(Math.abs((await real(page)) - alphaAt)).toBeLessThan(0.5);
    expect(await screen.locator('.xterm-rows').textContent()).not.toContain('gamma-66');
    await list.getByRole('button', { name: /beta/ }).click();
    expect(Math.abs((await real(page)) - betaAt)).toBeLessThan(0.5);
    await expect.poll(() => list.locator('li.active').textContent()).toContain('beta');

    // Search through the output: the match moves the player to when it was on screen.
    await page.getByTestId('replay-search').fill('gamma-66');
    await expect.poll(() => page.getByTestId('replay-search-count').textContent()).toMatch(/1 of \d/);
    await expect.poll(() => screen.locator('.xterm-rows').textContent()).toContain('gamma-66');
    await screenshot(page, 'session-replay-en');

    // The commands list links to the replay at the command's moment.
    await page.goto(`/luna/replay/${recorded}?ts=${commands[2]!.timestamp}`);
    await expect.poll(() => real(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(betaAt - 1);
  }, 120_000);

  it('lists sessions and commands in the console', async () => {
    await page.goto(`/ui/audit/sessions/sessions/?activeTab=offline`);
    const row = page.locator('tr', { hasText: recorded.slice(0, 8) });
    await row.waitFor();
    await row.locator('[data-action="replay"]').waitFor();
    await screenshot(page, 'session-list-en');
    await row.getByRole('link', { name: recorded.slice(0, 8) }).click();
    await page.waitForURL(`**/audit/sessions/sessions/${recorded}**`);
    await page.getByTestId('session-actions').getByRole('button', { name: 'Replay' }).waitFor();
    await screenshot(page, 'session-detail-en');
    await page.getByRole('tab', { name: 'Commands' }).click();
    await page.getByText('echo beta-$((50+5))').waitFor();

    await page.goto('/ui/audit/sessions/command/');
    await page.getByText('echo gamma-$((60+6))').first().waitFor();
    expect(await page.getByTestId('command-replay').first().getAttribute('href')).toMatch(/\/luna\/replay\/.+ts=\d+/);
    await screenshot(page, 'command-list-en');
  }, 60_000);

  it('watches a live session from a second browser and terminates it', async () => {
    const s = await terminal();
    await s.run('echo before-watch', 'before-watch');
    const other = await newContext(browser, baseURL, { width: 1000, height: 640 });
    const watcher = await other.newPage();
    await signInAdmin(watcher, E2E_ADMIN_PASSWORD);
    await watcher.goto(`/luna/monitor/${s.id()}`);
    await expect.poll(() => watcher.getByTestId('monitor-status').textContent()).toBe('Live · read only');
    const screen = watcher.getByTestId('monitor-screen').locator('.xterm-rows');
    await expect.poll(() => screen.textContent()).toContain('before-watch');
    await s.run('echo watched-$((7*6))', 'watched-42');
    await expect.poll(() => screen.textContent()).toContain('watched-42');
    await screenshot(watcher, 'session-monitor-en');

    // The online tab of the first browser lists it with its live actions.
    await page.goto('/ui/audit/sessions/sessions/?activeTab=online');
    const row = page.locator('tr', { hasText: s.id().slice(0, 8) });
    await row.locator('[data-action="monitor"]').waitFor();

    watcher.once('dialog', (d) => void d.accept());
    await watcher.getByTestId('monitor-terminate').click();
    await s.closed;
    expect(s.reason()).toBe('killed');
    await expect.poll(() => watcher.getByTestId('monitor-status').textContent()).toBe('The session has ended.');
    const records = await api<{ joiner_display: string; is_finished: boolean }[]>(
      'GET',
      `/api/v1/terminal/session-join-records/?session=${s.id()}`,
    );
    expect(records).toMatchObject([{ joiner_display: 'Administrator(admin)', is_finished: true }]);
    await other.close();
  }, 90_000);

  it('shows the pages in Chinese', async () => {
    await ctx.addCookies([{ name: 'django_language', value: 'zh-hans', url: baseURL }]);
    await page.goto(`/luna/replay/${recorded}`);
    await page
      .getByRole('button', { name: '暂停' })
      .or(page.getByRole('button', { name: '播放' }))
      .waitFor();
    await page.getByTestId('replay-commands').getByRole('button', { name: /gamma/ }).waitFor();
    await expect
      .poll(() => page.getByTestId('replay-screen').locator('.xterm-rows').textContent(), { timeout: 20_000 })
      .toContain('beta-55');
    await screenshot(page, 'session-replay-zh');
    await page.goto('/ui/audit/sessions/sessions/?activeTab=offline');
    await page.getByRole('tab', { name: '历史会话' }).waitFor();
    await page.locator('tr', { hasText: recorded.slice(0, 8) }).waitFor();
    await screenshot(page, 'session-list-zh');
    await page.goto('/ui/audit/sessions/command/');
    await page.getByText('echo gamma-$((60+6))').first().waitFor();
    await screenshot(page, 'command-list-zh');
    await page.goto(`/ui/audit/sessions/sessions/${recorded}?activeTab=SessionDetail`);
    await page.getByTestId('session-actions').waitFor();
    await screenshot(page, 'session-detail-zh');
    await ctx.addCookies([{ name: 'django_language', value: 'en', url: baseURL }]);
  }, 60_000);
});
