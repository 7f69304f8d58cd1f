import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { launchBrowser, newContext, screenshot, signIn } from './browser.ts';
import { hashPassword } from '@gatehouse/server/test-support/passwords.ts';

/** Issue 5 on the login page: the password leaves encrypted, and a bound authenticator adds a code step. */
let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  browser = await launchBrowser();
  // Its own server: binding MFA to the admin must not change the other browser tests.
  server = await startServer();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

const code = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

async function api(ctx: BrowserContext, url: string, data: unknown) {
  const csrf = (await ctx.cookies()).find((c) => c.name === 'jms_csrftoken')?.value ?? '';
  const res = await ctx.request.post(url, { data: data as Record<string, unknown>, headers: { 'X-CSRFToken': csrf } });
  return { status: res.status(), body: (await res.json()) as Record<string, unknown> };
}

describe('signing in with MFA through the login page', () => {
  it('sends the password encrypted, then asks for the authenticator code once one is bound', async () => {
    const ctx = await newContext(browser, server.url);
    const page = await ctx.newPage();
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/core/auth/login/'))
        posted.push(String((r.postDataJSON() as { password?: string }).password));
    });

    await page.goto('/core/auth/login/');
    expect((await ctx.cookies()).some((c) => c.name === 'jms_public_key')).toBe(true);
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.waitForURL((u) => u.pathname.startsWith('/ui/'));
    expect(posted[0]).toMatch(/^gh1\.[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(posted[0]).not.toContain(E2E_ADMIN_PASSWORD);

    // Bind an authenticator through the API, as the profile page will.
    expect((await api(ctx, '/api/v1/authentication/confirm/', { confirm_type: 'relogin' })).status).toBe(200);
    const start = await api(ctx, '/api/v1/authentication/otp/bind/start/', {});
    expect(start.status).toBe(200);
    const secret = String(start.body.secret);
    expect((await api(ctx, '/api/v1/authentication/otp/bind/', { code: code(secret, -1) })).body).toEqual({
      msg: 'ok',
    });

    await page.goto('/core/auth/logout/');
    await page.waitForURL(/\/core\/auth\/login\//);
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const step = page.getByTestId('mfa-step');
    await step.waitFor();
    await screenshot(page, 'login-mfa-step');

    const input = page.getByLabel('Verification code');
    await input.fill('123');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toBe('MFA Error, please check');

    await input.fill(code(secret, 0));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/ui/'));
    expect((await ctx.cookies()).some((c) => c.name === 'jms_sessionid')).toBe(true);
    await ctx.close();
  });

  it('makes a user bind an authenticator during sign-in when SECURITY_MFA_AUTH forces MFA', async () => {
    // Straight into the server's database: a user without an authenticator, and MFA for everyone.
    const now = new Date().toISOString();
    const password = await hashPassword('Erin-pass-1!');
    server.withDatabase((db) => {
      db.prepare(
        `INSERT INTO users_user (id, username, name, email, password, is_active, is_first_login, need_update_password, is_service_account, source, mfa_level, phone, wechat, comment, date_expired, date_joined, date_password_last_updated, created_by, updated_by, date_updated)
       VALUES (?, 'erin', 'Erin', 'erin@example.com', ?, 1, 0, 0, 0, 'local', 0, '', '', '', '2096-01-01T00:00:00.000Z', ?, ?, 'e2e', 'e2e', ?)`,
      ).run(randomUUID(), password, now, now, now);
      db.prepare(
        `INSERT INTO settings_setting (name, value, category, encrypted, date_updated) VALUES ('SECURITY_MFA_AUTH', '1', 'security_auth', 0, ?)`,
      ).run(now);
    });
    await new Promise((r) => setTimeout(r, 5200)); // settings are re-read every 5 s

    const ctx = await newContext(browser, server.url);
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await signIn(page, 'erin', 'Erin-pass-1!');
    await page.getByTestId('otp-bind-step').waitFor();
    expect(await page.getByRole('img', { name: 'QR code for the authenticator app' }).getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    await screenshot(page, 'login-otp-bind');
    const secret = (await page.getByTestId('otp-secret').textContent())!.trim();
    await page.getByLabel('Verification code').fill(code(secret));
    await page.getByRole('button', { name: 'Bind and sign in' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/ui/'));
    await ctx.close();
  });
});
