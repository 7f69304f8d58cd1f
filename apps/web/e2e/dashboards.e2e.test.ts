import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { apiCall, launchBrowser, pickMenuItem, screenshot, signInAdmin } from './browser.ts';

/**
 * Both dashboards drawn with data (issue 18): sessions, commands and login logs seeded in the
 * server's database, the counters read back, every chart drawn on its canvas; and the logs pages
 * with the operate log's diff. Its own server: the seeded sessions would show in other tests.
 */
let browser: Browser;
let server: RunningServer;
let ctx: BrowserContext;
let page: Page;

const DAY = 86_400_000;
// Today in UTC (the browser runs in UTC): never before this midnight, never in the future.
const todayAt = (offsetMs: number) =>
  Math.max(Math.floor(Date.now() / DAY) * DAY + 1000, Date.now() - 600_000) + offsetMs;

function seed() {
  server.withDatabase((db) => {
    const session = db.prepare(
      `insert into terminal_session (id, user, user_id, asset, asset_id, account, account_id, protocol, type,
        login_from, remote_addr, is_success, is_finished, has_replay, has_command, is_locked, command_amount,
        terminal_id, replay_path, date_start, date_end, comment, org_id)
       values (?, ?, ?, ?, ?, 'root', ?, 'ssh', 'normal', 'WT', '10.0.0.1', ?, ?, 0, 1, 0, 3, '', '', ?, null, '', ?)`,
    );
    const users = ['Ann(ann)', 'Ben(ben)', 'Cy(cy)', 'Dee(dee)'];
    const assets = ['web-01', 'web-02', 'db-01'];
    // The admin's sign-ins beside the sessions (login logs count the org's members).
    const login = db.prepare(
      `insert into audits_userloginlog (id, username, type, ip, city, user_agent, mfa, reason, backend, status, datetime)
       values (?, 'admin', 'W', '10.0.0.1', '', 'e2e', 0, '', 'password', ?, ?)`,
    );
    // Sessions per day, six days ago first: 16 in the week, 4 today (2 online, 1 failed).
    const perDay = [2, 3, 1, 2, 3, 1, 4];
    let n = 0;
    for (let day = 6; day >= 0; day--)
      for (let i = 0; i < perDay[6 - day]!; i++) {
        const at = day === 0 ? todayAt(i) : Math.floor(Date.now() / DAY) * DAY - day * DAY + 3_600_000 * (i + 1);
        const online = day === 0 && i < 2;
        const failed = day === 0 && i === 2;
        session.run(
          randomUUID(),
          users[n % users.length],
          `u-${n % users.length}`,
          assets[n % assets.length],
          randomUUID(),
          randomUUID(),
          failed ? 0 : 1,
          online ? 0 : 1,
          new Date(at).toISOString(),
          DEFAULT_ORG_ID,
        );
        login.run(randomUUID(), i === 2 ? 0 : 1, new Date(at).toISOString());
        n++;
      }
    const command = db.prepare(
      `insert into terminal_command (id, session_id, user, asset, account, input, output, risk_level, timestamp_ms,
        remote_addr, cmd_filter_acl_id, org_id) values (?, ?, 'Ann(ann)', 'web-01', 'root', ?, '', ?, ?, '', null, ?)`,
    );
    for (let i = 0; i < 8; i++)
      command.run(randomUUID(), randomUUID(), `ls ${i}`, i < 2 ? 5 : 0, todayAt(i), DEFAULT_ORG_ID);
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
  ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 900 }, timezoneId: 'UTC' });
  page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
  seed();
  await apiCall(ctx, 'POST', '/api/v1/assets/hosts/', { name: 'web-01', address: '10.0.0.11', platform: 'Linux' });
  await apiCall(ctx, 'POST', '/api/v1/assets/hosts/', { name: 'win-01', address: '10.0.0.12', platform: 'Windows' });
}, 120_000);
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Every chart box on the page has a canvas with something painted on it. */
async function chartsDrawn(ids: string[]): Promise<void> {
  for (const id of ids) {
    const box = page.getByTestId(id);
    await box.locator('canvas').first().waitFor({ timeout: 30_000 });
    await expect
      .poll(
        () =>
          box.evaluate((el) => {
            const canvas = el.querySelector('canvas')!;
            const { width, height } = canvas;
            const data = canvas.getContext('2d')!.getImageData(0, 0, width, height).data;
            let painted = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
            return painted;
          }),
        { timeout: 15_000 },
      )
      .toBeGreaterThan(100);
  }
}

async function inChinese(): Promise<void> {
  await ctx.addCookies([{ name: 'django_language', value: 'zh-hans', url: server.url }]);
  await page.reload();
}

async function inEnglish(): Promise<void> {
  await ctx.addCookies([{ name: 'django_language', value: 'en', url: server.url }]);
}

describe('the console dashboard', () => {
  it('shows the real-time counters and draws every chart and ranking', async () => {
    await inEnglish();
    await page.goto('/ui/console/dashboard');
    await expect.poll(() => page.getByTestId('count-online-sessions').textContent(), { timeout: 15_000 }).toBe('2');
    expect(await page.getByTestId('count-failed-sessions').textContent()).toBe('1');
    await chartsDrawn(['chart-activity', 'chart-users-ring', 'chart-assets-ring', 'chart-asset-types']);
    await expect.poll(() => page.getByTestId('rank-users').locator('tbody tr').count()).toBe(4);
    const top = page.getByTestId('top10-assets');
    // Today: web-01 twice, web-02 and db-01 once.
    await top.getByRole('button', { name: 'Today' }).click();
    await expect.poll(() => top.locator('tbody tr').first().textContent()).toBe('1web-012');
    await top.getByRole('button', { name: '7 days' }).click();
    await expect.poll(() => top.locator('tbody tr').first().textContent()).toBe('1web-016');
    await page.evaluate(() => document.querySelector('[data-testid="dashboard-console"]')?.scrollIntoView());
    await screenshot(page, 'dashboard-console-en');
    await top.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-console-en-bottom');
    await inChinese();
    await page.getByTestId('dashboard-console').waitFor();
    await chartsDrawn(['chart-activity', 'chart-users-ring']);
    expect(await page.getByTestId('dashboard-console').textContent()).toContain('实时数据');
    await screenshot(page, 'dashboard-console-zh');
    await inEnglish();
  });
});

describe('the audit dashboard', () => {
  it('shows the summary counters linking to their lists and draws the rings and trends', async () => {
    await page.goto('/ui/audit');
    await page.waitForURL('**/ui/audit/dashboard');
    await expect.poll(() => page.getByTestId('count-online-sessions').textContent(), { timeout: 15_000 }).toBe('2');
    expect(await page.getByTestId('count-commands').textContent()).toBe('8');
    expect(await page.getByTestId('count-danger-commands').textContent()).toBe('2');
    await chartsDrawn(['chart-login-ring', 'chart-command-ring', 'chart-session-trend', 'chart-login-trend']);
    expect(await page.getByTestId('count-history-sessions').textContent()).toBe('2');
    await page.getByRole('button', { name: '7 days' }).click();
    await expect.poll(() => page.getByTestId('count-history-sessions').textContent()).toBe('14');
    await screenshot(page, 'dashboard-audit-en');
    await page.getByTestId('chart-login-trend').scrollIntoViewIfNeeded();
    // For the picture only: ECharts grows its bars for about a second after a redraw.
    await page.waitForTimeout(1500);
    await screenshot(page, 'dashboard-audit-en-bottom');
    await inChinese();
    await page.getByTestId('dashboard-audit').waitFor();
    await chartsDrawn(['chart-login-ring', 'chart-login-trend']);
    await screenshot(page, 'dashboard-audit-zh');
    await inEnglish();
    await page.reload();
    await page.getByTestId('count-operate-logs').click();
    await page.waitForURL('**/ui/audit/audits/operate-logs/**');
  });
});

describe('the logs pages', () => {
  it('open the operate log’s diff, and list password changes, jobs and online sessions', async () => {
    const group = await apiCall<{ id: string }>(ctx, 'POST', '/api/v1/users/groups/', { name: 'night-shift' });
    await apiCall(ctx, 'PATCH', `/api/v1/users/groups/${group.id}/`, { comment: 'on call' });
    await page.goto('/ui/audit/audits/operate-logs/');
    const row = page.locator('[data-testid="resource-list"] tbody tr.ant-table-row').filter({ hasText: 'night-shift' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(2);
    await screenshot(page, 'logs-operate');
    await row.filter({ hasText: 'Update' }).getByRole('button', { name: 'View' }).click();
    const diff = page.getByTestId('diff-table');
    await expect.poll(() => diff.textContent(), { timeout: 10_000 }).toContain('on call');
    await diff.evaluate((el) =>
      Promise.all((el.closest('.ant-modal-wrap') ?? el).getAnimations({ subtree: true }).map((a) => a.finished)),
    );
    await screenshot(page, 'logs-operate-diff');
    await page.keyboard.press('Escape');

    const created = await apiCall<{ id: string }>(ctx, 'POST', '/api/v1/users/users/', {
      name: 'Eve',
      username: 'eve',
      email: 'eve@example.com',
      password_strategy: 'custom',
      password: 'Eve-pass-1!',
    });
    await apiCall(ctx, 'PUT', `/api/v1/users/users/${created.id}/password/`, { password: 'Eve-pass-2!' });
    await page.goto('/ui/audit/audits/password-change-log');
    await expect
      .poll(() => page.locator('[data-testid="resource-list"] tbody').textContent(), { timeout: 15_000 })
      .toContain('Eve(eve)');
    await screenshot(page, 'logs-password-change');

    await page.goto('/ui/audit/audits/job-execution-log');
    await page.getByTestId('resource-list').waitFor();
    await screenshot(page, 'logs-jobs');

    await page.goto('/ui/audit/online-user-session');
    const sessions = page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
    await expect.poll(() => sessions.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // One's own session offers no "Offline".
    expect(await sessions.first().getByRole('button', { name: 'Offline' }).count()).toBe(0);
    await screenshot(page, 'logs-user-sessions');
  });
});

/** Pixels of a chart's canvas painted in a colour (not white, grey or black: a ring's track and text are grey). */
async function colouredPixels(id: string): Promise<number> {
  const box = page.getByTestId(id);
  await box.locator('canvas').first().waitFor({ timeout: 30_000 });
  return box.evaluate((el) => {
    const canvas = el.querySelector('canvas')!;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
      if (a > 0 && Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
    }
    return coloured;
  });
}

describe('rings with nothing to count', () => {
  it('are an empty grey track saying 0%, not half filled, in an organisation without data', async () => {
    await inEnglish();
    // With data, the rings are filled in colour.
    await page.goto('/ui/audit/dashboard');
    await chartsDrawn(['chart-login-ring', 'chart-command-ring']);
    await expect.poll(() => colouredPixels('chart-command-ring')).toBeGreaterThan(100);

    await apiCall(ctx, 'POST', '/api/v1/orgs/orgs/', { name: 'Nothing here' });
    await page.goto('/ui/audit/dashboard');
    await page.getByTestId('org-selector').click();
    await pickMenuItem(page, 'Nothing here', true);
    await expect
      .poll(() => page.getByTestId('org-selector').textContent(), { timeout: 15_000 })
      .toContain('Nothing here');
    await page.goto('/ui/audit/dashboard');
    // Its answer is in (the rings are drawn from it, not from no data yet).
    await expect.poll(() => page.getByTestId('count-commands').textContent(), { timeout: 15_000 }).toBe('0');
    expect(await page.getByTestId('count-login-logs').textContent()).toBe('0');
    await chartsDrawn(['chart-login-ring', 'chart-command-ring']);
    // Drawn (the grey track is there, see chartsDrawn), with no coloured slice.
    expect(await colouredPixels('chart-login-ring')).toBe(0);
    expect(await colouredPixels('chart-command-ring')).toBe(0);
    await screenshot(page, 'dashboard-audit-empty-rings');

    await page.goto('/ui/console/dashboard');
    // The counters in the rings' panel have their answer: the rings are drawn from it, not from no data.
    await expect.poll(() => page.getByTestId('count-users').textContent(), { timeout: 15_000 }).toBe('0');
    expect(await page.getByTestId('count-assets').textContent()).toBe('0');
    await chartsDrawn(['chart-users-ring', 'chart-assets-ring']);
    expect(await colouredPixels('chart-users-ring')).toBe(0);
    expect(await colouredPixels('chart-assets-ring')).toBe(0);
    await screenshot(page, 'dashboard-console-empty-rings');
  });
});
