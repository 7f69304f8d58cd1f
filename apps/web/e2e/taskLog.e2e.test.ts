import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signInAdmin } from './browser.ts';
import { freePort } from '@gatehouse/server/test-support/ports.ts';
import { startSshd, type Sshd } from '@gatehouse/server/test-support/sshd.ts';

/** The hidden task-log page: a connectivity test against a real sshd on loopback, streamed into xterm. */
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let sshd: Sshd;

beforeAll(async () => {
  sshd = await startSshd();
  browser = await launchBrowser();
  ctx = await newContext(browser, inject('baseURL'), { width: 900, height: 600 });
  page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
});
afterAll(async () => {
  await browser.close();
  sshd?.stop();
});

const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);

describe('the task-log page', () => {
  it('shows the log lines of a connectivity test and its final state', async () => {
    const closed = await freePort();
    const up = await api<{ id: string }>('POST', '/api/v1/assets/hosts/', {
      name: 'e2e-sshd',
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: sshd.port }],
    });
    const down = await api<{ id: string }>('POST', '/api/v1/assets/hosts/', {
      name: 'e2e-closed',
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: closed }],
    });
    const { task } = await api<{ task: string }>('POST', '/api/v1/assets/assets/tasks/', {
      action: 'test',
      assets: [up.id, down.id],
    });

    // Opened as other pages open it: the /core/ address leads to the console page.
    await page.goto(`/core/ops/celery/task/${task}/log/?type=celery`);
    await page.waitForURL(`**/ui/ops/celery/task/${task}/log/?type=celery`);
    const terminal = page.getByTestId('task-log-terminal');
    await terminal.locator('.xterm-rows').waitFor();
    await expect
      .poll(() => terminal.locator('.xterm-rows').textContent(), { timeout: 20_000 })
      .toContain('Task SUCCESS: 2/2');
    const text = (await terminal.locator('.xterm-rows').textContent()) ?? '';
    expect(text).toContain('Task test-assets-connectivity started: 2 asset(s)');
    expect(text).toContain(`e2e-sshd (127.0.0.1)`);
    expect(text).toContain(`ssh/${sshd.port}: ok`);
    expect(text).toContain(`ssh/${closed}: failed`);
    await page.getByTestId('task-log-ended').waitFor();
    await expect.poll(() => page.getByTestId('task-log-state').textContent()).toBe('Success');
    expect(await page.title()).toContain('Task log');
    await screenshot(page, 'task-log');
  });

  it('waits on a task the user may not see or that does not exist, without showing a log', async () => {
    await page.goto('/ui/ops/celery/task/no-such-task/log/');
    const terminal = page.getByTestId('task-log-terminal');
    await terminal.locator('.xterm-rows').waitFor();
    await expect.poll(() => terminal.locator('.xterm-rows').textContent()).toMatch(/\.\.\./);
    expect(await page.getByTestId('task-log-state').textContent()).toBe('-');
    expect(await page.getByTestId('task-log-ended').count()).toBe(0);
  });
});
