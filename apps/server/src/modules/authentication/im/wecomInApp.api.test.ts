import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { IM_APPS, startImStandIn, type ImStandIn } from '../../../../test-support/imStandIns.ts';

/**
 * Sign-in inside WeCom's own client, without a QR code: `/core/auth/wecom/oauth/login/` sends the
 * browser to WeCom's OAuth2 page (`connect/oauth2/authorize`, snsapi_base), whose code the callback
 * exchanges at `cgi-bin/auth/getuserinfo` like the QR flow's. WeCom cannot be reached from here:
 * the stand-in of its documented API (test-support/imStandIns.ts, extended with that OAuth2 page,
 * which like WeCom answers only its own client's User-Agent) plays it.
 */
let t: TestApp;
let im: ImStandIn;
const WXWORK_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 wxwork/4.1.20 MicroMessenger/7.0.1 Language/zh';
const PLAIN_UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0';
const START = '/core/auth/wecom/oauth/login/';

async function lastLogin() {
  const row = await t.deps.database.db
    .selectFrom('audits_userloginlog')
    .select(['username', 'reason', 'backend', 'status'])
    .orderBy('datetime', 'desc')
    .executeTakeFirstOrThrow();
  return { ...row, status: Boolean(row.status) };
}

const userRow = (username: string) =>
  t.deps.database.db
    .selectFrom('users_user')
    .select(['source', 'name', 'wecom_id'])
    .where('username', '=', username)
    .executeTakeFirst();

/** Our start → WeCom's OAuth2 page, opened in WeCom's client (`who` is the member there) → our callback. */
async function inApp(c: SessionClient, who: string, next = '/ui/audits/') {
  im.next.wecom = who;
  const start = await c.get(`${START}?next=${encodeURIComponent(next)}`, { 'user-agent': WXWORK_UA });
  expect(start.statusCode, start.body).toBe(302);
  const authorize = new URL(start.headers.location as string);
  const page = await fetch(authorize, { redirect: 'manual', headers: { 'user-agent': WXWORK_UA } });
  expect(page.status).toBe(302);
  const back = new URL(page.headers.get('location')!);
  return { authorize, back, res: await c.get(`${back.pathname}${back.search}`, { 'user-agent': WXWORK_UA }) };
}

beforeAll(async () => {
  im = await startImStandIn();
  im.people.wecom.set('mei', { id: 'mei', name: 'Mei Chen', email: 'mei@corp.test' });
  im.people.wecom.set('newcomer', { id: 'newcomer', name: 'New Comer', email: '' });
  t = await createTestApp();
  const admin = await adminClient(t.app);
  const res = await admin.patch('/api/v1/settings/setting/?category=wecom', {
    AUTH_WECOM: true,
    WECOM_CORPID: IM_APPS.wecom.corpid,
    WECOM_AGENTID: IM_APPS.wecom.agentid,
    WECOM_SECRET: IM_APPS.wecom.secret,
    WECOM_ENDPOINT: im.url,
    WECOM_LOGIN_ENDPOINT: im.url,
    WECOM_OAUTH_ENDPOINT: im.url,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await im.close();
});

describe('WeCom sign-in inside its client', () => {
  it('is what the login page offers in WeCom’s client; elsewhere the QR page', async () => {
    const methods = async (ua: string) =>
      (
        (await new SessionClient(t.app).get('/api/v1/settings/public/open/', { 'user-agent': ua })).json()
          .SSO_METHODS as { name: string; url: string }[]
      ).find((m) => m.name === 'wecom')?.url;
    expect(await methods(WXWORK_UA)).toBe(START);
    expect(await methods(PLAIN_UA)).toBe('/core/auth/wecom/qr/login/');
  });

  it('goes through WeCom’s OAuth2 page without a QR code and signs the member in, logged', async () => {
    const c = new SessionClient(t.app);
    const { authorize, res } = await inApp(c, 'mei');
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${im.url}/connect/oauth2/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      appid: IM_APPS.wecom.corpid,
      agentid: IM_APPS.wecom.agentid,
      response_type: 'code',
      scope: 'snsapi_base',
    });
    expect(authorize.searchParams.get('state')).toMatch(/.{16,}/);
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/\/core\/auth\/wecom\/oauth\/login\/callback\/$/);
    expect(authorize.hash).toBe('#wechat_redirect');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/ui/audits/');
    expect((await c.get('/api/v1/users/profile/')).json()).toMatchObject({ username: 'mei', wecom_id: 'mei' });
    expect(await userRow('mei')).toMatchObject({ source: 'wecom', name: 'Mei Chen', wecom_id: 'mei' });
    expect(await lastLogin()).toMatchObject({ username: 'mei', status: true, backend: 'wecom' });
    // The code was asked about at getuserinfo, with the app token only (the secret at gettoken only).
    expect(im.calls.some((x) => x.url.startsWith('/cgi-bin/auth/getuserinfo'))).toBe(true);
    expect(
      im.calls.filter((x) => x.url.includes(IM_APPS.wecom.secret)).every((x) => x.url.startsWith('/cgi-bin/gettoken')),
    ).toBe(true);
  });

  it('checks the state: a replayed callback, one in another browser or with a made-up state is refused', async () => {
    const { back } = await inApp(new SessionClient(t.app), 'mei');
    const replay = await new SessionClient(t.app).get(`${back.pathname}${back.search}`);
    expect(replay.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'state_invalid', backend: 'wecom' });

    const c = new SessionClient(t.app);
    await c.get(START, { 'user-agent': WXWORK_UA });
    const made = await c.get('/core/auth/wecom/oauth/login/callback/?code=x&state=made-up');
    expect(made.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'state_invalid', backend: 'wecom' });
  });

  it('refuses a member bound to nobody under ONLY_ALLOW_EXIST_USER_AUTH, as the QR flow does', async () => {
    await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', true);
    try {
      const { res } = await inApp(new SessionClient(t.app), 'newcomer');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?error=not_bound`);
      expect(await lastLogin()).toMatchObject({ status: false, reason: 'not_bound', backend: 'wecom' });
      expect(await userRow('newcomer')).toBeUndefined();
    } finally {
      await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', false);
    }
  });

  it('sends nobody to WeCom while its sign-in is off', async () => {
    await t.deps.settings.set('AUTH_WECOM', false);
    try {
      const res = await new SessionClient(t.app).get(START, { 'user-agent': WXWORK_UA });
      expect(res.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    } finally {
      await t.deps.settings.set('AUTH_WECOM', true);
    }
  });
});
