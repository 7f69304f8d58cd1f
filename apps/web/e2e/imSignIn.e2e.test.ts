import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { IM_APPS, startImStandIn, type ImStandIn } from '@gatehouse/server/test-support/imStandIns.ts';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { apiCall, newContext, newUserContext, openAsAdmin, screenshot } from './browser.ts';

/**
 * Sign-in through WeCom, DingTalk and FeiShu from the login page's buttons, their settings tabs,
 * and binding from the profile. These services cannot be reached from here: a local stand-in of
 * their documented APIs (test-support/imStandIns.ts) plays them, its "QR pages" sending the browser
 * straight back as if the person had scanned. A server of its own: the buttons change every user's
 * login page.
 */
let server: RunningServer;
let im: ImStandIn;
let browser: Browser;
let admin: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  im = await startImStandIn();
  im.people.wecom.set('e2e-wei', { id: 'e2e-wei', name: 'Wei E2E', email: 'wei@e2e.test' });
  im.people.wecom.set('e2e-mei', { id: 'e2e-mei', name: 'Mei E2E', email: 'mei@e2e.test' });
  im.people.dingtalk.set('e2e-ding', { id: 'e2e-ding', name: 'Ding E2E', email: 'ding@e2e.test' });
  ({ browser, ctx: admin, page } = await openAsAdmin(server.url, E2E_ADMIN_PASSWORD));
  await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=oidc', { BASE_SITE_URL: server.url });
  await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=wecom', {
    AUTH_WECOM: true,
    WECOM_CORPID: IM_APPS.wecom.corpid,
    WECOM_AGENTID: IM_APPS.wecom.agentid,
    WECOM_SECRET: IM_APPS.wecom.secret,
    WECOM_ENDPOINT: im.url,
    WECOM_LOGIN_ENDPOINT: im.url,
    WECOM_OAUTH_ENDPOINT: im.url,
  });
  await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=dingtalk', {
    AUTH_DINGTALK: true,
    DINGTALK_APPKEY: IM_APPS.dingtalk.appkey,
    DINGTALK_APPSECRET: IM_APPS.dingtalk.appsecret,
    DINGTALK_ENDPOINT: im.url,
  });
  await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=feishu', {
    AUTH_FEISHU: true,
    FEISHU_APP_ID: IM_APPS.feishu.app_id,
    FEISHU_APP_SECRET: IM_APPS.feishu.app_secret,
    FEISHU_ENDPOINT: im.url,
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await im?.close();
  await server?.stop();
});

describe('messenger sign-in', () => {
  it('shows the WeCom, DingTalk and FeiShu tabs, the secret never shown again, and tests an app', async () => {
    await page.goto('/ui/settings/auth');
    for (const [tab, category, shot] of [
      ['FeiShu', 'feishu', 'settings-feishu'],
      ['DingTalk', 'dingtalk', 'settings-dingtalk'],
      ['WeCom', 'wecom', 'settings-wecom'],
    ] as const) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      const form = page.getByTestId(`settings-form-${category}`);
      await form.getByLabel('API address').waitFor();
      await expect.poll(() => form.getByLabel('API address').inputValue()).toBe(im.url);
      await screenshot(page, shot);
    }
    const form = page.getByTestId('settings-form-wecom');
    expect(await form.getByLabel('Secret', { exact: true }).inputValue()).toBe('');
    await page.getByTestId('wecom-test').click();
    await expect.poll(() => page.getByTestId('im-result').textContent()).toContain('credentials work');
    await form.getByLabel('Secret', { exact: true }).fill('wrong-secret');
    await page.getByTestId('wecom-test').click();
    await expect.poll(() => page.getByTestId('im-result').last().textContent()).toContain('invalid credential');
    await screenshot(page, 'settings-wecom-test');
  });

  it('signs in from the login page button through the WeCom page back to the console', async () => {
    const ctx = await newContext(browser, server.url);
    const p = await ctx.newPage();
    await p.goto('/core/auth/login/?next=/ui/profile/info');
    for (const name of ['wecom', 'dingtalk', 'feishu']) await p.getByTestId(`sso-${name}`).waitFor();
    expect(await p.getByTestId('sso-wecom').textContent()).toContain('WeCom');
    await screenshot(p, 'login-im-buttons');
    im.next.wecom = 'e2e-wei';
    await p.getByTestId('sso-wecom').click();
    await p.waitForURL(`${server.url}/ui/**`);
    const me = await apiCall<{ username: string; source: { value: string } }>(ctx, 'GET', '/api/v1/users/profile/');
    expect(me).toMatchObject({ username: 'e2e-wei', source: { value: 'wecom' } });
    await ctx.close();
  });

  it("signs in inside WeCom's client through its OAuth2 page, without a QR code", async () => {
    const ctx = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 420, height: 800 },
      userAgent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/140.0 Mobile wxwork/4.1.20',
    });
    const p = await ctx.newPage();
    await p.goto('/core/auth/login/?next=/ui/profile/info');
    await p.getByTestId('sso-wecom').waitFor();
    await screenshot(p, 'login-wecom-in-app');
    im.next.wecom = 'e2e-mei';
    const seen = im.calls.length;
    await p.getByTestId('sso-wecom').click();
    await p.waitForURL(`${server.url}/ui/**`);
    const me = await apiCall<{ username: string; wecom_id: string }>(ctx, 'GET', '/api/v1/users/profile/');
    expect(me).toMatchObject({ username: 'e2e-mei', wecom_id: 'e2e-mei' });
    const pages = im.calls.slice(seen).map((x) => new URL(x.url, im.url).pathname);
    expect(pages).toContain('/connect/oauth2/authorize');
    expect(pages).not.toContain('/wwlogin/sso/login');
    await ctx.close();
  });

  it("lets the administrator unbind a user's WeCom from the user's detail page after a re-verification", async () => {
    const ORG = { 'X-JMS-ORG': '00000000-0000-0000-0000-000000000002' };
    type Row = { id: string; wecom_id: string | null };
    const [wei] = await apiCall<Row[]>(admin, 'GET', '/api/v1/users/users/?username=e2e-wei', undefined, ORG);
    expect(wei!.wecom_id).toBe('e2e-wei');
    await page.goto(`/ui/console/users/users/${wei!.id}`);
    const actions = page.getByTestId('user-quick-actions');
    await actions.getByText('e2e-wei').waitFor();
    expect(await actions.getByTestId('user-unbind-dingtalk').isDisabled()).toBe(true);
    await actions.getByTestId('user-unbind-wecom').click();
    await page.getByTestId('reverify-secret').fill(E2E_ADMIN_PASSWORD);
    await screenshot(page, 'user-im-unbind-reverify');
    await page.getByTestId('reverify-submit').click();
    await expect
      .poll(() => page.getByTestId('user-im-unbind-result').textContent())
      .toBe('WeCom is no longer bound to e2e-wei.');
    await expect.poll(() => actions.getByTestId('user-unbind-wecom').isDisabled()).toBe(true);
    await screenshot(page, 'user-im-unbound');
    const after = await apiCall<Row>(admin, 'GET', `/api/v1/users/users/${wei!.id}/`, undefined, ORG);
    expect(after.wecom_id).toBeNull();
  });

  it('binds DingTalk from the profile after a re-verification, then unbinds it', async () => {
    const { context } = await newUserContext(browser, server.url, admin, '00000000-0000-0000-0000-000000000002', {
      username: 'e2e-imbind',
      name: 'IM Bind',
      password: 'Im-bind-pass-1!',
    });
    const p = await context.newPage();
    await p.goto('/ui/profile/info');
    await p.getByTestId('bind-dingtalk').click();
    // The re-verification dialog of a local user asks for the password.
    im.next.dingtalk = 'e2e-ding';
    await p.getByTestId('reverify-secret').fill('Im-bind-pass-1!');
    await screenshot(p, 'profile-im-reverify');
    await p.getByTestId('reverify-submit').click();
    await p.waitForURL('**/ui/profile/info**');
    await expect.poll(() => p.getByTestId('im-bind-result').textContent(), { timeout: 30_000 }).toContain('now bound');
    await p.getByTestId('unbind-dingtalk').waitFor();
    await screenshot(p, 'profile-im-bound');
    const me = await apiCall<{ dingtalk_id: string | null }>(context, 'GET', '/api/v1/users/profile/');
    expect(me.dingtalk_id).toBe('e2e-ding');
    await p.getByTestId('unbind-dingtalk').click();
    await p.getByTestId('bind-dingtalk').waitFor();
    expect(
      (await apiCall<{ dingtalk_id: string | null }>(context, 'GET', '/api/v1/users/profile/')).dingtalk_id,
    ).toBeNull();
    await context.close();
  });
});
