import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { bindTotp, createUser, USER_PASSWORD } from '../../../../test-support/auth.ts';
import { signedInUser } from '../../../../test-support/profile.ts';
import { IM_APPS, startImStandIn, type ImName, type ImStandIn } from '../../../../test-support/imStandIns.ts';

/**
 * Sign-in through WeCom, DingTalk and FeiShu, binding and unbinding from the profile, and the
 * settings' tests. None of these services can be reached from here: the tests run against a local
 * stand-in of their documented APIs (test-support/imStandIns.ts), which checks the app's
 * credentials (and DingTalk's request signature) the way each provider documents it.
 */
let t: TestApp;
let admin: SessionClient;
let im: ImStandIn;

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
    .select(['id', 'source', 'name', 'email', 'wecom_id', 'dingtalk_id', 'feishu_id'])
    .where('username', '=', username)
    .executeTakeFirst();

/** Our route → the provider's page (the person `who` scans) → back with a code: our callback's answer. */
async function viaProvider(c: SessionClient, route: string, provider: ImName, who: string) {
  im.next[provider] = who;
  const start = await c.get(route);
  expect(start.statusCode, start.body).toBe(302);
  const page = await fetch(start.headers.location as string, { redirect: 'manual' });
  expect(page.status).toBe(302);
  const back = new URL(page.headers.get('location')!);
  return { back, res: await c.get(`${back.pathname}${back.search}`) };
}
const signIn = (c: SessionClient, p: ImName, who: string, next = '/ui/audits/') =>
  viaProvider(c, `/core/auth/${p}/qr/login/?next=${encodeURIComponent(next)}`, p, who);

beforeAll(async () => {
  im = await startImStandIn();
  im.people.wecom.set('wei', { id: 'wei', name: 'Wei Zhang', email: 'wei@corp.test' });
  im.people.wecom.set('wlocked', { id: 'wlocked', name: 'Locked', email: '' });
  im.people.dingtalk.set('ding', { id: 'ding', name: 'Ding Li', email: 'ding@corp.test' });
  im.people.dingtalk.set('dana-im', { id: 'dana-im', name: 'Dana', email: 'dana-im@corp.test' });
  im.people.feishu.set('fei', { id: 'fei', name: 'Fei Wang', email: 'fei@corp.test' });
  t = await createTestApp();
  admin = await adminClient(t.app);
  for (const [category, values] of Object.entries({
    wecom: {
      AUTH_WECOM: true,
      WECOM_CORPID: IM_APPS.wecom.corpid,
      WECOM_AGENTID: IM_APPS.wecom.agentid,
      WECOM_SECRET: IM_APPS.wecom.secret,
      WECOM_ENDPOINT: im.url,
      WECOM_LOGIN_ENDPOINT: im.url,
    },
    dingtalk: {
      AUTH_DINGTALK: true,
      DINGTALK_AGENTID: IM_APPS.dingtalk.agentid,
      DINGTALK_APPKEY: IM_APPS.dingtalk.appkey,
      DINGTALK_APPSECRET: IM_APPS.dingtalk.appsecret,
      DINGTALK_ENDPOINT: im.url,
    },
    feishu: {
      AUTH_FEISHU: true,
      FEISHU_APP_ID: IM_APPS.feishu.app_id,
      FEISHU_APP_SECRET: IM_APPS.feishu.app_secret,
      FEISHU_ENDPOINT: im.url,
    },
  })) {
    const res = await admin.patch(`/api/v1/settings/setting/?category=${category}`, values);
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
  await im.close();
});

describe('messenger settings', () => {
  it('keeps the secrets sealed and never returns them; the login page shows a button per messenger', async () => {
    const got = (await admin.get('/api/v1/settings/setting/?category=wecom')).json();
    expect(got).toMatchObject({ AUTH_WECOM: true, WECOM_CORPID: IM_APPS.wecom.corpid });
    expect(got).not.toHaveProperty('WECOM_SECRET');
    const rows = await t.deps.database.db
      .selectFrom('settings_setting')
      .select(['name', 'value'])
      .where('name', 'in', ['WECOM_SECRET', 'DINGTALK_APPSECRET', 'FEISHU_APP_SECRET'])
      .execute();
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(String(r.value)).not.toMatch(/app-secret/);
    const pub = (await new SessionClient(t.app).get('/api/v1/settings/public/open/')).json();
    const methods = pub.SSO_METHODS as { name: string; url: string }[];
    expect(methods.map((m) => m.name)).toEqual(expect.arrayContaining(['wecom', 'dingtalk', 'feishu']));
    expect(methods.find((m) => m.name === 'feishu')!.url).toBe('/core/auth/feishu/qr/login/');
  });

  it('tests each app against its provider: the form values, an empty secret keeping the stored one', async () => {
    for (const p of ['wecom', 'dingtalk', 'feishu'] as const) {
      const ok = await admin.post(`/api/v1/settings/${p}/testing/`, {});
      expect(ok.statusCode, ok.body).toBe(200);
    }
    const wrong = await admin.post('/api/v1/settings/dingtalk/testing/', { DINGTALK_APPSECRET: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toMatch(/invalid appkey or appsecret/);
    const zh = await admin.post('/api/v1/settings/feishu/testing/', { FEISHU_APP_ID: '' }, { 'accept-language': 'zh' });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().msg).toContain('请先填写 FEISHU_APP_ID');
    const bad = await admin.post('/api/v1/settings/wecom/testing/', { WECOM_ENDPOINT: 'not a url' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('WECOM_ENDPOINT');
    const { client: user } = await signedInUser(t, 'im_nobody');
    expect((await user.post('/api/v1/settings/wecom/testing/', {})).statusCode).toBe(403);
  });
});

describe('WeCom sign-in', () => {
  it('creates the person as a user of source wecom, bound, then finds them by the binding', async () => {
    const c = new SessionClient(t.app);
    const { res } = await signIn(c, 'wecom', 'wei');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/ui/audits/');
    expect(await userRow('wei')).toMatchObject({
      source: 'wecom',
      wecom_id: 'wei',
      name: 'Wei Zhang',
      email: 'wei@corp.test',
    });
    expect(await lastLogin()).toMatchObject({ username: 'wei', status: true, backend: 'wecom' });
    const logs = (await admin.get('/api/v1/audits/login-logs/?username=wei')).json();
    expect(logs.results?.[0] ?? logs[0]).toMatchObject({ backend_display: 'WeCom' });
    // The corp secret is asked for at gettoken only (WeCom's API takes it nowhere else).
    expect(
      im.calls.filter((x) => x.url.includes(IM_APPS.wecom.secret)).every((x) => x.url.startsWith('/cgi-bin/gettoken')),
    ).toBe(true);
    const again = new SessionClient(t.app);
    expect((await signIn(again, 'wecom', 'wei', '//evil.example/x')).res.headers.location).toBe('/ui/');
    expect((await again.get('/api/v1/users/profile/')).json()).toMatchObject({ username: 'wei', wecom_id: 'wei' });
  });

  it('refuses a replayed callback, one from another browser and a forged code, with login-log entries', async () => {
    const { back } = await signIn(new SessionClient(t.app), 'wecom', 'wei');
    const replay = await new SessionClient(t.app).get(`${back.pathname}${back.search}`);
    expect(replay.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'state_invalid', backend: 'wecom' });
    const c = new SessionClient(t.app);
    const start = await c.get('/core/auth/wecom/qr/login/');
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const forged = await c.get(`/core/auth/wecom/qr/login/callback/?code=forged&state=${state}`);
    expect(forged.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
    expect(await lastLogin()).toMatchObject({ status: false, reason: 'provider_failed', backend: 'wecom' });
  });

  it('applies the login lock and asks for MFA after the sign-in under SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', async () => {
    await signIn(new SessionClient(t.app), 'wecom', 'wlocked');
    // The username blocked by failed password attempts (the lock's key, modules/authentication/lockout.ts).
    await t.deps.cache.set('_LOGIN_BLOCK_wlocked', 1, 60);
    const blocked = await signIn(new SessionClient(t.app), 'wecom', 'wlocked');
    expect(blocked.res.headers.location).toBe(`${LOGIN_PATH}?error=block_login`);
    expect(await lastLogin()).toMatchObject({ username: 'wlocked', status: false, backend: 'wecom' });
    await t.deps.cache.delete('_LOGIN_BLOCK_wlocked');
    const c = new SessionClient(t.app);
    await signIn(c, 'wecom', 'wei');
    await bindTotp(c);
    await t.deps.settings.set('SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', true);
    try {
      const { res } = await signIn(new SessionClient(t.app), 'wecom', 'wei', '/ui/profile/');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?mfa=otp&next=${encodeURIComponent('/ui/profile/')}`);
    } finally {
      await t.deps.settings.set('SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY', false);
    }
  });
});

describe('DingTalk: binding a local user from the profile', () => {
  it('binds after a re-verification, signs that user in through DingTalk, unbinds after one', async () => {
    await createUser(t, 'dana');
    const c = new SessionClient(t.app);
    expect((await c.login('dana', USER_PASSWORD)).statusCode).toBe(200);
    // Without a fresh re-verification the binding does not start.
    const early = await c.get('/core/auth/dingtalk/qr/bind/?redirect_url=/ui/profile/');
    expect(early.headers.location).toBe('/ui/profile/?im_bind=dingtalk&result=confirm');
    expect((await c.get('/api/v1/authentication/confirm-oauth/')).json()).toMatchObject({ code: 'relogin' });
    expect((await c.post('/api/v1/authentication/confirm/', { confirm_type: 'relogin' })).statusCode).toBe(200);
    expect((await c.get('/api/v1/authentication/confirm-oauth/')).statusCode).toBe(200);
    const { res } = await viaProvider(
      c,
      '/core/auth/dingtalk/qr/bind/?redirect_url=/ui/profile/',
      'dingtalk',
      'dana-im',
    );
    expect(res.headers.location).toBe('/ui/profile/?im_bind=dingtalk&result=ok');
    expect(await userRow('dana')).toMatchObject({ source: 'local', dingtalk_id: 'dana-im' });

    const viaDing = new SessionClient(t.app);
    expect((await signIn(viaDing, 'dingtalk', 'dana-im')).res.headers.location).toBe('/ui/audits/');
    expect((await viaDing.get('/api/v1/users/profile/')).json()).toMatchObject({
      username: 'dana',
      dingtalk_id: 'dana-im',
    });
    expect(await lastLogin()).toMatchObject({ username: 'dana', status: true, backend: 'dingtalk' });

    // The same DingTalk person cannot be bound to a second user.
    await createUser(t, 'dave');
    const d = new SessionClient(t.app);
    await d.login('dave', USER_PASSWORD);
    await d.post('/api/v1/authentication/confirm/', { confirm_type: 'relogin' });
    const taken = await viaProvider(d, '/core/auth/dingtalk/qr/bind/', 'dingtalk', 'dana-im');
    expect(taken.res.headers.location).toBe('/ui/profile/?im_bind=dingtalk&result=taken');
    expect(await userRow('dave')).toMatchObject({ dingtalk_id: null });

    const unbind = await c.post('/api/v1/authentication/dingtalk/qr/unbind/', {});
    expect(unbind.statusCode, unbind.body).toBe(200);
    expect(await userRow('dana')).toMatchObject({ dingtalk_id: null });
    expect((await c.post('/api/v1/authentication/dingtalk/qr/unbind/', {})).statusCode).toBe(400);
  });

  it('binds nothing when the callback of one user’s binding reaches another user’s browser', async () => {
    await createUser(t, 'mallory');
    const m = new SessionClient(t.app);
    await m.login('mallory', USER_PASSWORD);
    await m.post('/api/v1/authentication/confirm/', { confirm_type: 'relogin' });
    im.next.dingtalk = 'ding';
    const start = await m.get('/core/auth/dingtalk/qr/bind/');
    const page = await fetch(start.headers.location as string, { redirect: 'manual' });
    const back = new URL(page.headers.get('location')!);
    await createUser(t, 'victim');
    const v = new SessionClient(t.app);
    await v.login('victim', USER_PASSWORD);
    const res = await v.get(`${back.pathname}${back.search}`);
    expect(res.headers.location).toBe('/ui/profile/?im_bind=dingtalk&result=state_invalid');
    expect(await userRow('victim')).toMatchObject({ dingtalk_id: null });
    // Signed out, the binding page sends to the login page.
    const anon = await new SessionClient(t.app).get('/core/auth/dingtalk/qr/bind/');
    expect(anon.headers.location).toMatch(/^\/core\/auth\/login\/\?next=/);
  });

  it('needs a re-verification to unbind', async () => {
    await createUser(t, 'ursula');
    const c = new SessionClient(t.app);
    await c.login('ursula', USER_PASSWORD);
    await t.deps.database.db
      .updateTable('users_user')
      .set({ feishu_id: 'ursula-fs' })
      .where('username', '=', 'ursula')
      .execute();
    const res = await c.post('/api/v1/authentication/feishu/qr/unbind/', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'relogin' });
    expect(await userRow('ursula')).toMatchObject({ feishu_id: 'ursula-fs' });
  });
});

describe('FeiShu sign-in', () => {
  it('refuses a person bound to nobody under ONLY_ALLOW_EXIST_USER_AUTH, creating nothing', async () => {
    await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', true);
    try {
      const { res } = await signIn(new SessionClient(t.app), 'feishu', 'fei');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?error=not_bound`);
      expect(await lastLogin()).toMatchObject({ status: false, reason: 'not_bound', backend: 'feishu' });
      expect(await userRow('fei')).toBeUndefined();
    } finally {
      await t.deps.settings.set('ONLY_ALLOW_EXIST_USER_AUTH', false);
    }
    const c = new SessionClient(t.app);
    expect((await signIn(c, 'feishu', 'fei')).res.headers.location).toBe('/ui/audits/');
    expect(await userRow('fei')).toMatchObject({ source: 'feishu', feishu_id: 'fei', email: 'fei@corp.test' });
  });

  it('refuses a person whose id is the username of a local user (no takeover by name)', async () => {
    await createUser(t, 'ding');
    const { res } = await signIn(new SessionClient(t.app), 'dingtalk', 'ding');
    expect(res.headers.location).toBe(`${LOGIN_PATH}?error=user_invalid`);
    expect(await userRow('ding')).toMatchObject({ source: 'local', dingtalk_id: null });
  });

  it('sends nobody to a disabled provider', async () => {
    await t.deps.settings.set('AUTH_FEISHU', false);
    try {
      const res = await new SessionClient(t.app).get('/core/auth/feishu/qr/login/');
      expect(res.headers.location).toBe(`${LOGIN_PATH}?error=sso_failed`);
      const pub = (await new SessionClient(t.app).get('/api/v1/settings/public/open/')).json();
      const methods = pub.SSO_METHODS as { name: string }[];
      expect(methods.map((m) => m.name)).not.toContain('feishu');
    } finally {
      await t.deps.settings.set('AUTH_FEISHU', true);
    }
  });
});
