import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { SessionClient, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD, createUser } from '../../../test-support/auth.ts';

let t: TestApp;
let admin: SessionClient;
let orgB: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Login logs B' })).json().id;
  // A member of Default only, created through the API (OrgUser role there).
  const res = await admin.post(
    '/api/v1/users/users/',
    { name: 'Dora', username: 'dora', email: 'dora@example.com', password_strategy: 'custom', password: USER_PASSWORD },
    { 'x-jms-org': DEFAULT_ORG_ID },
  );
  expect(res.statusCode).toBe(201);
  await createUser(t, 'nobody');
});
afterAll(async () => t.close());

describe('login logs', () => {
  it('records successes and failures with reason, type, backend, address, agent and MFA', async () => {
    const c = new SessionClient(t.app);
    expect((await c.login('dora', 'wrong-password', {})).statusCode).toBe(400);
    expect((await c.login('ghost', 'whatever')).statusCode).toBe(400);
    const ok = await c.request({
      method: 'POST',
      url: '/core/auth/login/',
      payload: { username: 'dora', password: USER_PASSWORD },
      headers: { 'user-agent': 'Tester/1.0' },
    });
    expect(ok.statusCode).toBe(200);

    const mine = await c.get('/api/v1/audits/my-login-logs/?limit=5', { 'accept-language': 'en' });
    expect(mine.statusCode).toBe(200);
    const page = mine.json();
    expect(page.count).toBe(2);
    const [success, failure] = page.results;
    expect(success).toMatchObject({
      username: 'dora',
      type: { value: 'W', label: 'Web' },
      ip: '127.0.0.1',
      user_agent: 'Tester/1.0',
      mfa: { value: 0, label: 'Disabled' },
      reason: '',
      reason_display: '',
      backend: 'password',
      backend_display: 'Password',
      status: { value: true, label: 'Success' },
    });
    expect(success.datetime).toMatch(/^\d{4}\/\d{2}\/\d{2} /);
    expect(Object.keys(success).sort()).toEqual([
      'backend',
      'backend_display',
      'city',
      'datetime',
      'id',
      'ip',
      'mfa',
      'reason',
      'reason_display',
      'status',
      'type',
      'user_agent',
      'username',
    ]);
    expect(failure).toMatchObject({
      reason: 'password_failed',
      reason_display: 'Username/password check failed',
      status: { value: false, label: 'Failed' },
      mfa: { value: 2, label: '-' },
    });

    const zh = (await c.get('/api/v1/audits/my-login-logs/?status=0', { 'accept-language': 'zh-CN' })).json();
    expect(zh).toHaveLength(1);
    expect(zh[0].status.label).toBe('失败');
    expect((await c.get(`/api/v1/audits/my-login-logs/${success.id}/`)).json().id).toBe(success.id);
  });

  it('logs token API attempts and takes the login type from X-JMS-LOGIN-TYPE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authentication/auth/',
      payload: { username: 'nobody', password: USER_PASSWORD },
      headers: { 'x-jms-login-type': 'T' },
    });
    expect(res.statusCode).toBe(201);
    const rows = (await admin.get('/api/v1/audits/login-logs/?username=nobody', { 'x-jms-org': ROOT_ORG_ID })).json();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: { value: 'T' }, status: { value: true } });
  });

  it('filters, searches and narrows to the members of the current org', async () => {
    const all = (await admin.get('/api/v1/audits/login-logs/', { 'x-jms-org': ROOT_ORG_ID })).json();
    expect(all.map((r: { username: string }) => r.username)).toEqual(
      expect.arrayContaining(['admin', 'dora', 'ghost', 'nobody']),
    );
    const inDefault = (await admin.get('/api/v1/audits/login-logs/', { 'x-jms-org': DEFAULT_ORG_ID })).json();
    const names = new Set(inDefault.map((r: { username: string }) => r.username));
    expect(names.has('dora')).toBe(true);
    expect(names.has('ghost')).toBe(false);
    expect(names.has('nobody')).toBe(false);
    expect((await admin.get('/api/v1/audits/login-logs/?username=dora', { 'x-jms-org': orgB })).json()).toEqual([]);
    expect(
      (await admin.get('/api/v1/audits/login-logs/?search=gho', { 'x-jms-org': ROOT_ORG_ID }))
        .json()
        .map((r: { username: string }) => r.username),
    ).toEqual(['ghost']);
    const failed = (
      await admin.get('/api/v1/audits/login-logs/?status=false&mfa=2', { 'x-jms-org': ROOT_ORG_ID })
    ).json();
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed.every((r: { status: { value: boolean } }) => !r.status.value)).toBe(true);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(
      (
        await admin.get(`/api/v1/audits/login-logs/?date_from=${encodeURIComponent(future)}`, {
          'x-jms-org': ROOT_ORG_ID,
        })
      ).json(),
    ).toEqual([]);
    expect(
      (await admin.get('/api/v1/audits/login-logs/?date_from=nonsense', { 'x-jms-org': ROOT_ORG_ID })).statusCode,
    ).toBe(400);
  });

  it("needs audits.view_userloginlog for everyone's logs, and none for one's own", async () => {
    const dora = new SessionClient(t.app);
    await dora.login('dora', USER_PASSWORD);
    expect((await dora.get('/api/v1/audits/login-logs/')).statusCode).toBe(403);
    const own = (await dora.get('/api/v1/audits/my-login-logs/')).json();
    expect(own.every((r: { username: string }) => r.username === 'dora')).toBe(true);
    const adminRow = (await admin.get('/api/v1/audits/my-login-logs/')).json()[0];
    expect((await dora.get(`/api/v1/audits/my-login-logs/${adminRow.id}/`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/audits/my-login-logs/' })).statusCode).toBe(401);
  });
});
