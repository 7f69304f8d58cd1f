import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { startSmtpPeer, type SmtpPeer } from '@gatehouse/server/test-support/smtpPeer.ts';
import { startVaultStandIn, type VaultStandIn } from '@gatehouse/server/test-support/vaultStandIn.ts';
import { startSmsStandIns, type SmsStandIns } from '@gatehouse/server/test-support/smsStandIns.ts';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { apiCall, launchBrowser, newContext, newUserContext, screenshot, signInAdmin } from './browser.ts';

/**
 * Settings › Messages and Features on a server of its own (an SMTP host and an announcement apply
 * to every user): the Email form saved and its test button sending a real mail to an SMTP server
 * on loopback (`smtp-server`), the custom SMS backend's test reaching a local HTTP server, the
 * Subscription table changing a type's backends, and the
 * announcement saved by the admin, seen by a second user until dismissed, and shown again after
 * the next save; Vault tested against a local stand-in of its KV v2 HTTP API (Vault cannot be
 * installed here).
 */
let server: RunningServer;
let peer: SmtpPeer;
let vault: VaultStandIn;
let sms: SmsStandIns;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  peer = await startSmtpPeer();
  vault = await startVaultStandIn('hvs.e2e-token', 'gatehouse');
  sms = await startSmsStandIns();
  server = await startServer();
  browser = await launchBrowser();
  ctx = await newContext(browser, server.url);
  page = await ctx.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await peer?.close();
  await vault?.close();
  await sms?.close();
});

describe('Messages', () => {
  it('saves the SMTP server and sends a real test mail with the unsaved recipient', async () => {
    await page.goto('/ui/settings/msg');
    const form = page.getByTestId('settings-form-email');
    await form.getByLabel('SMTP host').fill('127.0.0.1');
    await form.getByLabel('SMTP port').fill(String(peer.port));
    await form.getByLabel('Sender').fill('gatehouse@e2e.test');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    await form.getByLabel('Test recipient').fill('ops@e2e.test');
    await page.getByTestId('mail-test').click();
    await expect
      .poll(() => page.getByTestId('mail-test-result').first().textContent())
      .toBe('Sent a test mail to ops@e2e.test');
    expect(peer.mails.map((m) => m.to)).toEqual([['ops@e2e.test']]);
    await screenshot(page, 'settings-msg-email');
  });

  it('sends a test code through the custom SMS backend to a local HTTP server', async () => {
    await page.getByRole('tab', { name: 'SMS' }).click();
    const main = page.getByTestId('settings-form-sms');
    await main.getByLabel('Test phone').fill('+8613800000001');
    await main.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').last().waitFor();
    await page.getByRole('tab', { name: 'Custom HTTP' }).click();
    const form = page.getByTestId('settings-form-custom');
    await form.getByLabel('Gateway URL').fill(`${sms.url}/custom/`);
    await form.getByLabel('Parameters').fill('{"to": "{phone}", "text": "code {code}"}');
    await page.getByTestId('sms-test-custom').click();
    await expect
      .poll(() => page.getByTestId('sms-test-result').first().textContent())
      .toBe('Sent a test code to +8613800000001');
    expect(sms.sent).toEqual([
      { provider: 'custom', phone: '+8613800000001', text: expect.stringMatching(/^code \d{6}$/) },
    ]);
    await screenshot(page, 'settings-msg-sms');
  });

  it('turns a message type’s site message off in the subscription table', async () => {
    await page.getByRole('tab', { name: 'Subscription' }).click();
    const box = page.getByTestId('sub-password_changed-site_msg');
    await box.waitFor();
    // Email is offered now that an SMTP host is set.
    await page.getByTestId('sub-password_changed-email').waitFor();
    await box.click();
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ receive_backends: string[] }>(
              ctx,
              'GET',
              '/api/v1/notifications/system-msg-subscription/password_changed/',
            )
          ).receive_backends,
      )
      .toEqual(['email']);
    await screenshot(page, 'settings-msg-subscription');

    // Extra receivers: the administrator also receives every "account locked" message.
    await page.getByTestId('sub-receivers-account_locked').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Users').click();
    await dialog.getByLabel('Users').fill('admin');
    await page.locator('.ant-select-item-option', { hasText: 'Administrator' }).first().click();
    await screenshot(page, 'settings-msg-receivers');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ receivers: string[] }>(
              ctx,
              'GET',
              '/api/v1/notifications/system-msg-subscription/account_locked/',
            )
          ).receivers,
      )
      .toEqual(['Administrator(admin)']);
    await page.getByTestId('sub-receivers-account_locked').getByText('Administrator(admin)').waitFor();
  });
});

describe('Features', () => {
  it('publishes an announcement a second user sees until dismissed, and again after the next save', async () => {
    await page.goto('/ui/settings/features');
    const form = page.getByTestId('settings-form-announcement');
    await form.getByLabel('Show the announcement').click();
    await form.getByLabel('Subject').fill('Maintenance on Sunday');
    await form.getByLabel('Content').fill('The bastion restarts at 02:00 UTC.');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    await page.getByTestId('announcement').waitFor();
    await screenshot(page, 'settings-features-announcement');

    const { context } = await newUserContext(browser, server.url, ctx, DEFAULT_ORG_ID, {
      username: 'e2e-reader',
      name: 'Reader',
      password: 'Reader-pass-1',
    });
    const other = await context.newPage();
    await other.goto('/ui/');
    const banner = other.getByTestId('announcement');
    await expect.poll(() => banner.textContent()).toContain('Maintenance on Sunday');
    await screenshot(other, 'announcement-second-user');
    await banner.getByRole('button', { name: /close/i }).click();
    await banner.waitFor({ state: 'detached' });
    await other.reload();
    await other.getByTestId('view-switcher').or(other.locator('main')).first().waitFor();
    expect(await other.getByTestId('announcement').count()).toBe(0);

    await form.getByLabel('Content').fill('Moved to 03:00 UTC.');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('settings-saved').last().waitFor();
    await other.reload();
    await expect.poll(() => other.getByTestId('announcement').textContent()).toContain('Moved to 03:00 UTC.');
    await context.close();
  });

  it('shows the ticket and job centre settings', async () => {
    await page.getByRole('tab', { name: 'Ops' }).click();
    const ops = page.getByTestId('settings-form-ops');
    await ops.getByLabel('Command blacklist').waitFor();
    await screenshot(page, 'settings-features-ops');
    await page.getByRole('tab', { name: 'Ticket' }).click();
    await page.getByTestId('settings-form-ticket').getByLabel('Default authorisation time').waitFor();
    await screenshot(page, 'settings-features-ticket');
  });

  it('tests Vault with the form’s unsaved values (a stand-in of its KV v2 API answers)', async () => {
    await page.getByRole('tab', { name: 'Vault' }).click();
    const form = page.getByTestId('settings-form-vault');
    await form.getByLabel('Vault address').fill(vault.url);
    await form.getByLabel('Token').fill('hvs.e2e-token');
    await form.getByLabel('Mount point').fill('gatehouse');
    await page.getByTestId('vault-test').click();
    await expect.poll(() => page.getByTestId('vault-result').first().textContent()).toMatch(/^Connected to Vault/);
    await screenshot(page, 'settings-features-vault');
  });
});
