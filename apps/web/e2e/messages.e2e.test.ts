import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './browser.ts';

/** Issue 5, site messages: a message arrives live in another browser, is read, and all are marked read. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

async function csrfPost(ctx: BrowserContext, method: 'POST' | 'PATCH', url: string, data: unknown) {
  const csrf = (await ctx.cookies()).find((c) => c.name === 'jms_csrftoken')?.value ?? '';
  const res = await ctx.request.fetch(url, {
    method,
    data: data as Record<string, unknown>,
    headers: { 'X-CSRFToken': csrf },
  });
  return { status: res.status(), body: (await res.json()) as Record<string, unknown> };
}

describe('site messages', () => {
  it('shows a message live in the badge of a second browser, opens it, and marks them read', async () => {
    const baseURL = inject('baseURL');
    const admin = await newContext(browser, baseURL);
    const adminPage = await admin.newPage();
    await adminPage.goto('/core/auth/login/');
    await signIn(adminPage, 'admin', E2E_ADMIN_PASSWORD);
    await adminPage.waitForURL('**/ui/console/dashboard');

    const username = `msg_${Date.now().toString(36)}`;
    const created = await csrfPost(admin, 'POST', '/api/v1/users/users/', {
      name: 'Message Reader',
      username,
      email: `${username}@example.com`,
      password_strategy: 'custom',
      password: 'Reader-pass1',
      system_roles: [],
      org_roles: [],
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);

    // The user, in a second browser; first time in: improvement page is theirs, read messages in the profile.
    const reader = await newContext(browser, baseURL);
    const page = await reader.newPage();
    await page.goto('/core/auth/login/');
    await signIn(page, username, 'Reader-pass1');
    await page.waitForURL((u) => u.pathname.startsWith('/ui/profile/'));
    const bell = page.getByTestId('message-bell');
    await bell.waitFor();
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    const badge = bell.getByTestId('message-badge');
    await expect.poll(() => badge.count()).toBe(0);

    // The administrator writes to the user: the badge follows without a reload. (A password reset
    // would also write to them, but it ends their sessions: see loginSecurity.test.ts.)
    const send = (subject: string) =>
      csrfPost(admin, 'POST', '/api/v1/notifications/site-messages/send/', {
        subject,
        message: `<p>Hello ${username}, the hosts restart at 22:00.</p>`,
        user_ids: [id],
      });
    expect((await send('Maintenance tonight')).status).toBeLessThan(300);
    await expect.poll(() => badge.getAttribute('title'), { timeout: 15_000 }).toBe('1');

    await bell.click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByTestId('message-item').first().waitFor();
    const panel = page.locator('.ant-drawer-content-wrapper');
    await expect.poll(async () => (await panel.boundingBox())?.width).toBe(380);
    await page.waitForTimeout(400); // the drawer's opening animation
    await screenshot(page, 'messages-drawer');
    await drawer.getByText('Maintenance tonight').click();
    const detail = page.getByRole('dialog', { name: 'Maintenance tonight' });
    await detail.waitFor();
    await expect.poll(() => detail.textContent()).toContain(username);
    await page.waitForTimeout(400); // the dialog's opening animation
    await screenshot(page, 'messages-detail');
    await detail.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    // Closing the detail marks it read: the count drops live.
    await expect.poll(() => badge.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => drawer.getByText('No unread messages').count()).toBe(1);

    // Two more, then "mark all" after a confirmation.
    await send('Second notice');
    await send('Third notice');
    await expect.poll(() => badge.getAttribute('title'), { timeout: 15_000 }).toBe('2');
    await drawer.getByTestId('message-item').nth(1).waitFor();
    await drawer.getByTestId('messages-read-all').click();
    await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => badge.count(), { timeout: 15_000 }).toBe(0);

    // On a narrow screen the drawer takes 70% of the width.
    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(async () => Math.round((await panel.boundingBox())?.width ?? 0), { timeout: 10_000 }).toBe(560);
    await admin.close();
    await reader.close();
  });
});
