import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, ROOT_ORG_ID, SETTING_CATEGORIES, permissionId } from '@gatehouse/contract';
import {
  adminClient,
  createPeerApp,
  createTestApp,
  SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { SETTING_DEFAULTS } from './defaults.ts';

/** `/api/v1/settings/setting/?category=`: read, partial and whole writes, validation, permissions, reload. */
let t: TestApp;
let admin: SessionClient;
const URL = '/api/v1/settings/setting/';
const PASSWORD = 'Settings-pass1';

function patch(c: SessionClient, category: string, payload: unknown, headers: Record<string, string> = {}) {
  return c.request({ method: 'PATCH', url: `${URL}?category=${category}`, payload: payload as object, headers });
}

/** A user holding only a custom system role with these permissions. */
async function userWith(name: string, perms: string[]): Promise<SessionClient> {
  const user = (
    await admin.post('/api/v1/users/users/', {
      name,
      username: name,
      email: `${name}@example.com`,
      password_strategy: 'custom',
      password: PASSWORD,
    })
  ).json();
  const role = (
    await admin.post('/api/v1/rbac/system-roles/', { name: `role-${name}`, permissions: perms.map(permissionId) })
  ).json();
  expect((await admin.post('/api/v1/rbac/system-role-bindings/', { user: user.id, role: role.id })).statusCode).toBe(
    201,
  );
  const [userBinding] = (
    await admin.get(`/api/v1/rbac/system-role-bindings/?user=${user.id}&role=${BUILTIN_ROLE_IDS.User}`)
  ).json();
  if (userBinding)
    await admin.request({ method: 'DELETE', url: `/api/v1/rbac/system-role-bindings/${userBinding.id}/` });
  const c = new SessionClient(t.app);
  expect((await c.login(name, PASSWORD)).statusCode).toBe(200);
  return c;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('settings categories', () => {
  it('declares only settings that have a default', () => {
    const missing = Object.values(SETTING_CATEGORIES)
      .flatMap((fields) => Object.keys(fields))
      .filter((name) => !(name in SETTING_DEFAULTS));
    expect(missing).toEqual([]);
  });

  it('reads a category: its fields with their current values, basic when none is named', async () => {
    const session = (await admin.get(`${URL}?category=security_session`)).json();
    expect(session).toEqual({
      SECURITY_WATERMARK_ENABLED: true,
      SECURITY_MAX_IDLE_TIME: 30,
      SECURITY_MAX_SESSION_TIME: 24,
      SECURITY_LUNA_REMEMBER_AUTH: true,
      SECURITY_SESSION_SHARE: true,
    });
    const security = (await admin.get(`${URL}?category=security`)).json();
    expect(Object.keys(security)).toEqual(
      expect.arrayContaining(['SECURITY_PASSWORD_MIN_LENGTH', 'SECURITY_MFA_AUTH']),
    );
    expect(Object.keys((await admin.get(URL)).json()).sort()).toEqual(Object.keys(SETTING_CATEGORIES.basic).sort());
    expect((await admin.get(`${URL}?category=clean`)).json().TASK_LOG_KEEP_DAYS).toBe(90);
  });

  it('saves only the keys a PATCH sends, coerced, and logs the change without unchanged keys', async () => {
    const res = await patch(admin, 'security', { SECURITY_MAX_IDLE_TIME: '45', SECURITY_SESSION_SHARE: true, NOPE: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ SECURITY_MAX_IDLE_TIME: 45, SECURITY_MAX_SESSION_TIME: 24 });
    expect(await t.deps.settings.get('SECURITY_MAX_IDLE_TIME')).toBe(45);
    const row = await t.deps.database.db
      .selectFrom('settings_setting')
      .selectAll()
      .where('name', '=', 'SECURITY_MAX_IDLE_TIME')
      .executeTakeFirstOrThrow();
    expect({ value: row.value, category: row.category }).toEqual({ value: '45', category: 'security' });
    expect(
      await t.deps.database.db.selectFrom('settings_setting').select('name').where('name', '=', 'NOPE').execute(),
    ).toEqual([]);
    // System-wide: the log shows in the global organisation, the model named in the reader's language.
    const logs = (
      await admin.get('/api/v1/audits/operate-logs/?resource_type=setting', {
        'x-jms-org': ROOT_ORG_ID,
        cookie: `${admin.jar.header()}; django_language=ja`,
      })
    ).json();
    expect(logs[0]).toMatchObject({
      resource: 'Settings (security)',
      resource_type: '設定',
      action: { value: 'update' },
    });
    const log = await t.deps.database.db
      .selectFrom('audits_operatelog')
      .select(['diff', 'action'])
      .where('resource_type', '=', 'setting')
      .orderBy('datetime', 'desc')
      .executeTakeFirstOrThrow();
    expect(log.action).toBe('update');
    expect(JSON.parse(log.diff)).toEqual([{ field: 'SECURITY_MAX_IDLE_TIME', before: '30', after: '45' }]);
  });

  it('refuses a bad value with the field message in the caller’s language, saving nothing of the request', async () => {
    const bad = await patch(admin, 'security_session', { SECURITY_MAX_SESSION_TIME: 12, SECURITY_MAX_IDLE_TIME: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ SECURITY_MAX_IDLE_TIME: ['Ensure this value is greater than or equal to 1.'] });
    expect(await t.deps.settings.get('SECURITY_MAX_SESSION_TIME')).toBe(24);
    expect(await t.deps.settings.get('SECURITY_MAX_IDLE_TIME')).toBe(45);
    const zh = await patch(
      admin,
      'ticket',
      { TICKET_AUTHORIZE_DEFAULT_TIME_UNIT: 'week' },
      { 'accept-language': 'zh' },
    );
    expect(zh.statusCode).toBe(400);
    expect(zh.json().TICKET_AUTHORIZE_DEFAULT_TIME_UNIT[0]).toMatch(/week/);
    expect(zh.json().TICKET_AUTHORIZE_DEFAULT_TIME_UNIT[0]).not.toMatch(/valid choice/);
    const ja = await patch(admin, 'basic', { SITE_URL: 'javascript:alert(1)' }, { 'accept-language': 'ja' });
    expect(ja.json()).toEqual({ SITE_URL: ['有効なURLを入力してください。'] });
    const types = await patch(admin, 'clean', { LOGIN_LOG_KEEP_DAYS: 'many', TASK_LOG_KEEP_DAYS: null });
    expect(Object.keys(types.json()).sort()).toEqual(['LOGIN_LOG_KEEP_DAYS', 'TASK_LOG_KEEP_DAYS']);
    expect((await patch(admin, 'clean', [1, 2])).statusCode).toBe(400);
  });

  it('needs every field on PUT', async () => {
    const partial = await admin.request({
      method: 'PUT',
      url: `${URL}?category=ticket`,
      payload: { TICKETS_ENABLED: false },
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().TICKET_AUTHORIZE_DEFAULT_TIME).toEqual(['This field is required.']);
    expect(await t.deps.settings.get('TICKETS_ENABLED')).toBe(true);
    const whole = await admin.request({
      method: 'PUT',
      url: `${URL}?category=ticket`,
      payload: { TICKETS_ENABLED: true, TICKET_AUTHORIZE_DEFAULT_TIME: 3, TICKET_AUTHORIZE_DEFAULT_TIME_UNIT: 'hour' },
    });
    expect(whole.statusCode).toBe(200);
    const pub = (await admin.get('/api/v1/settings/public/')).json();
    expect([pub.TICKET_AUTHORIZE_DEFAULT_TIME, pub.TICKET_AUTHORIZE_DEFAULT_TIME_UNIT]).toEqual([3, 'hour']);
  });

  it('checks each category’s permission; superuser-only categories refuse everyone else', async () => {
    const cleaner = await userWith('cleaner', ['settings.view_setting', 'settings.change_clean']);
    expect((await cleaner.get(`${URL}?category=clean`)).statusCode).toBe(200);
    expect((await patch(cleaner, 'clean', { FTP_LOG_KEEP_DAYS: 30 })).statusCode).toBe(200);
    expect(await t.deps.settings.get('FTP_LOG_KEEP_DAYS')).toBe(30);
    expect((await cleaner.get(`${URL}?category=security`)).statusCode).toBe(403);
    expect((await patch(cleaner, 'security', { SECURITY_SESSION_SHARE: false })).statusCode).toBe(403);
    expect((await cleaner.get(URL)).statusCode).toBe(200);
    // Viewing the settings is not changing the basic ones (the site URL goes out in mails).
    expect((await patch(cleaner, 'basic', { SITE_URL: 'https://evil.example.com' })).statusCode).toBe(403);
    expect(await t.deps.settings.get('SITE_URL')).toBe(SETTING_DEFAULTS.SITE_URL);

    const securityAdmin = await userWith('secadmin', ['settings.view_setting', 'settings.change_security']);
    expect((await patch(securityAdmin, 'security', { SECURITY_WATERMARK_ENABLED: false })).statusCode).toBe(200);
    for (const superOnly of ['security_session', 'ticket', 'all', 'made_up'])
      expect((await securityAdmin.get(`${URL}?category=${superOnly}`)).statusCode, superOnly).toBe(403);
    expect((await patch(securityAdmin, 'ticket', { TICKETS_ENABLED: false })).statusCode).toBe(403);
    expect(await t.deps.settings.get('TICKETS_ENABLED')).toBe(true);
    expect((await admin.get(`${URL}?category=made_up`)).json()).toHaveProperty('SITE_URL');
    await patch(admin, 'security', { SECURITY_WATERMARK_ENABLED: true });
  });

  it('is followed by the features: session sharing off answers 405', async () => {
    const share = () => admin.post('/api/v1/terminal/session-sharings/', { session: randomUUID() });
    expect((await share()).statusCode).not.toBe(405);
    expect((await patch(admin, 'security_session', { SECURITY_SESSION_SHARE: 'false' })).statusCode).toBe(200);
    try {
      expect((await share()).statusCode).toBe(405);
    } finally {
      await patch(admin, 'security_session', { SECURITY_SESSION_SHARE: true });
    }
    expect((await share()).statusCode).not.toBe(405);
  });

  it('reaches another instance within its reload', async () => {
    const peer = await createPeerApp(t);
    try {
      expect(await peer.app.deps.settings.get('OTP_VALID_WINDOW')).toBe(2);
      expect((await patch(admin, 'security_auth', { OTP_VALID_WINDOW: 5 })).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 5_100));
      expect(await peer.app.deps.settings.get('OTP_VALID_WINDOW')).toBe(5);
    } finally {
      await peer.close();
    }
  }, 20_000);
});
