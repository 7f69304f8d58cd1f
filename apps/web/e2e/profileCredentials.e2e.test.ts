import { request as httpRequest } from 'node:http';
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { launchBrowser, newContext, screenshot, signInAdmin } from './browser.ts';

/**
 * Issue 20 in Chromium: a passkey registered on /profile/passkeys with the browser's virtual
 * authenticator (DevTools protocol, WebAuthn domain) signs the admin in from the login page; an API
 * key made on /profile/key signs a request from a small Node client that lists users. The site is
 * opened as `localhost` (WebAuthn refuses IP addresses as relying-party ids).
 */
let browser: Browser;
let server: RunningServer;
let ctx: BrowserContext;
let page: Page;
let base: string;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
  server.withDatabase((db) => {
    const insert = db.prepare(
      `INSERT INTO settings_setting (name, value, category, encrypted, date_updated) VALUES (?, 'true', 'auth', 0, ?)`,
    );
    for (const name of ['AUTH_PASSKEY', 'AUTH_TEMP_TOKEN', 'CONNECTION_TOKEN_REUSABLE'])
      insert.run(name, new Date().toISOString());
  });
  await new Promise((r) => setTimeout(r, 5200)); // settings are re-read every 5 s
  base = server.url.replace('127.0.0.1', 'localhost');
  ctx = await newContext(browser, base);
  page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Answers the re-verification dialog with the admin's password when the page asks for it. */
async function reverifyIfAsked(): Promise<void> {
  const verify = page.getByRole('dialog', { name: 'Verify your identity' });
  if (
    !(await verify.waitFor({ timeout: 5000 }).then(
      () => true,
      () => false,
    ))
  )
    return;
  await verify.getByTestId('reverify-secret').fill(E2E_ADMIN_PASSWORD);
  await verify.getByTestId('reverify-submit').click();
  await verify.waitFor({ state: 'hidden' });
}

/** A client script's request: HMAC-SHA256 over "(request-target) accept date" with Node's crypto. */
function signedGet(url: string, keyId: string, secret: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const target = `${u.pathname}${u.search}`;
  const date = new Date().toUTCString();
  const accept = 'application/json';
  const text = `(request-target): get ${target}\naccept: ${accept}\ndate: ${date}`;
  const signature = createHmac('sha256', secret).update(text).digest('base64');
  const authorization = `Signature keyId="${keyId}",algorithm="hmac-sha256",headers="(request-target) accept date",signature="${signature}"`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(u, { method: 'GET', headers: { accept, date, authorization } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the profile credentials', () => {
  it('registers a passkey on /profile/passkeys, then signs in with it after signing out', async () => {
    await signInAdmin(page, E2E_ADMIN_PASSWORD);
    await page.goto('/ui/profile/passkeys');
    await page.getByTestId('profile-passkeys').waitFor();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByLabel('Name').fill('Virtual authenticator');
    await page.getByRole('button', { name: 'Register' }).click();
    await reverifyIfAsked();
    const row = page.getByRole('row', { name: /Virtual authenticator/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Chrome on Linux');
    await screenshot(page, 'profile-passkeys');

    await page.goto('/core/auth/logout/');
    await page.waitForURL('**/core/auth/login/**');
    await page.getByTestId('passkey-login').waitFor();
    await screenshot(page, 'login-passkey');
    await page.getByTestId('passkey-login').click();
    await page.waitForURL('**/ui/**');
    const profile = (await (await ctx.request.get('/api/v1/users/profile/')).json()) as { username: string };
    expect(profile.username).toBe('admin');
    const passkeys = (await (await ctx.request.get('/api/v1/authentication/passkeys/')).json()) as {
      date_last_used: string | null;
    }[];
    expect(passkeys[0]!.date_last_used).not.toBeNull();
  });

  it('makes an API key on /profile/key whose secret signs a request that lists users', async () => {
    await page.goto('/ui/profile/key');
    await page.getByTestId('profile-api-keys').waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await reverifyIfAsked();
    const id = (await page.getByTestId('new-key-id').textContent())!.trim();
    const secret = (await page.getByTestId('new-key-secret').textContent())!.trim();
    expect(secret).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(page, 'profile-api-key-created');
    await page.getByRole('dialog', { name: 'New API key' }).locator('.ant-modal-footer button').click();
    // The list has the key, never its secret.
    const listed = page.getByRole('row', { name: new RegExp(id) });
    await listed.waitFor();
    expect(await listed.textContent()).not.toContain(secret);

    const res = await signedGet(`${base}/api/v1/users/users/?limit=10`, id, secret);
    expect(res.status).toBe(200);
    const usernames = (JSON.parse(res.body) as { results: { username: string }[] }).results.map((u) => u.username);
    expect(usernames).toContain('admin');
    const wrong = await signedGet(`${base}/api/v1/users/users/?limit=10`, id, 'not-the-secret');
    expect(wrong.status).toBe(401);
  });

  it('shows temporary passwords, connection tokens with a countdown, and saves preferences', async () => {
    await page.goto('/ui/profile/temp-password');
    await page.getByTestId('profile-temp-password').waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await reverifyIfAsked();
    await page.getByRole('row', { name: /admin/ }).waitFor();
    await screenshot(page, 'profile-temp-password');

    const now = Date.now();
    server.withDatabase((db) => {
      const admin = db.prepare(`SELECT id FROM users_user WHERE username = 'admin'`).get() as { id: string };
      db.prepare(
        `INSERT INTO authentication_connectiontoken (id, value, user_id, user_display, asset_display, account, org_id, date_expired, date_created, date_updated)
         VALUES (?, 'v4lue', ?, 'Administrator(admin)', 'web-01(10.0.0.1)', 'root', '00000000-0000-0000-0000-000000000002', ?, ?, ?)`,
      ).run(
        randomUUID(),
        admin.id,
        new Date(now + 300_000).toISOString(),
        new Date(now).toISOString(),
        new Date(now).toISOString(),
      );
    });
    await page.goto('/ui/profile/connection-token');
    const countdown = page.getByTestId('ct-countdown');
    await countdown.waitFor();
    const first = await countdown.textContent();
    expect(first).toMatch(/^00:0[45]:\d\d$/);
    await expect.poll(() => countdown.textContent(), { timeout: 5000 }).not.toBe(first);
    expect(await page.getByRole('switch', { name: 'Reusable' }).count()).toBe(1);
    await screenshot(page, 'profile-connection-token');

    await page.goto('/ui/profile/user/setting');
    const luna = page.getByTestId('preference-luna');
    await luna.waitFor();
    await luna.getByLabel('Terminal font size').fill('18');
    await luna.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const prefs = (await (await ctx.request.get('/api/v1/users/preference/?category=luna')).json()) as {
          command_line: { character_terminal_font_size: number };
        };
        return prefs.command_line.character_terminal_font_size;
      })
      .toBe(18);
    await screenshot(page, 'profile-preferences');
  });
});
