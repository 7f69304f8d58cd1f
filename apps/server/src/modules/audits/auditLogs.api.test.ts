import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { SessionClient, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD } from '../../../test-support/auth.ts';

/** The operate, password change, job and user-session logs (issue 18), on the running API. */
let t: TestApp;
let admin: SessionClient;
let orgB: string;
let patId: string;
const ORG = (id: string) => ({ 'x-jms-org': id, 'accept-language': 'en' });

async function signIn(username: string, password = USER_PASSWORD, agent = 'Tester/1.0'): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  await c.get('/core/auth/login/');
  const res = await c.request({
    method: 'POST',
    url: '/core/auth/login/',
    payload: { username, password },
    headers: { 'user-agent': agent },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return c;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Logs B' })).json().id;
  const pat = await admin.post(
    '/api/v1/users/users/',
    { name: 'Pat', username: 'pat', email: 'pat@example.com', password_strategy: 'custom', password: USER_PASSWORD },
    ORG(DEFAULT_ORG_ID),
  );
  expect(pat.statusCode).toBe(201);
  patId = pat.json().id;
  // Org B's admin, to read the lists from another org.
  const bob = await admin.post(
    '/api/v1/users/users/',
    { name: 'Bob', username: 'bob', email: 'bob@example.com', password_strategy: 'custom', password: USER_PASSWORD },
    ORG(orgB),
  );
  expect(bob.statusCode).toBe(201);
  const orgAdminRole = (await admin.get('/api/v1/rbac/org-roles/?name=OrgAdmin', ORG(orgB))).json()[0];
  const bind = await admin.post(
    '/api/v1/rbac/org-role-bindings/',
    { user: bob.json().id, role: orgAdminRole.id },
    ORG(orgB),
  );
  expect(bind.statusCode).toBe(201);
});
afterAll(async () => t.close());

describe('password change logs', () => {
  it('are written by the profile change, an admin reset and an admin update, and read by org members', async () => {
    const pat = await signIn('pat');
    const own = await pat.request({
      method: 'PUT',
      url: '/api/v1/users/profile/password/',
      payload: { old_password: USER_PASSWORD, new_password: 'Pat-new-1!', new_password_again: 'Pat-new-1!' },
    });
    expect(own.statusCode).toBe(200);
    const reset = await admin.request({
      method: 'PUT',
      url: `/api/v1/users/users/${patId}/password/`,
      payload: { password: 'Pat-reset-2!' },
      headers: ORG(DEFAULT_ORG_ID),
    });
    expect(reset.statusCode).toBe(200);
    const patch = await admin.request({
      method: 'PATCH',
      url: `/api/v1/users/users/${patId}/`,
      payload: { password: 'Pat-patch-3!' },
      headers: ORG(DEFAULT_ORG_ID),
    });
    expect(patch.statusCode).toBe(200);

    const list = (await admin.get('/api/v1/audits/password-change-logs/?limit=10', ORG(DEFAULT_ORG_ID))).json();
    expect(list.count).toBe(3);
    expect(list.results.map((r: { change_by: string }) => r.change_by)).toEqual([
      'Administrator(admin)',
      'Administrator(admin)',
      'Pat(pat)',
    ]);
    expect(list.results[0]).toMatchObject({ user: 'Pat(pat)', remote_addr: '127.0.0.1' });
    expect(Object.keys(list.results[0]).sort()).toEqual(['change_by', 'datetime', 'id', 'remote_addr', 'user']);

    // Filters, search and dates.
    const byChanger = await admin.get('/api/v1/audits/password-change-logs/?change_by=Pat(pat)', ORG(DEFAULT_ORG_ID));
    expect(byChanger.json()).toHaveLength(1);
    expect(
      (await admin.get('/api/v1/audits/password-change-logs/?search=admin', ORG(DEFAULT_ORG_ID))).json(),
    ).toHaveLength(2);
    const future = encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString());
    expect(
      (await admin.get(`/api/v1/audits/password-change-logs/?date_from=${future}`, ORG(DEFAULT_ORG_ID))).json(),
    ).toEqual([]);

    // Pat is no member of org B: its admin sees none of them; the global org sees all.
    const bob = await signIn('bob');
    expect((await bob.get('/api/v1/audits/password-change-logs/', ORG(orgB))).json()).toEqual([]);
    expect((await admin.get('/api/v1/audits/password-change-logs/', ORG(ROOT_ORG_ID))).json()).toHaveLength(3);
    // A plain user may not read them.
    const patAgain = await signIn('pat', 'Pat-patch-3!');
    expect((await patAgain.get('/api/v1/audits/password-change-logs/', ORG(DEFAULT_ORG_ID))).statusCode).toBe(403);
  });
});

describe('operate logs', () => {
  it('list the current org’s writes with labels, filters and the diff', async () => {
    const created = await admin.post('/api/v1/users/groups/', { name: 'ops-team' }, ORG(DEFAULT_ORG_ID));
    expect(created.statusCode).toBe(201);
    const group = created.json();
    expect(
      (
        await admin.request({
          method: 'PATCH',
          url: `/api/v1/users/groups/${group.id}/`,
          payload: { comment: 'on call' },
          headers: ORG(DEFAULT_ORG_ID),
        })
      ).statusCode,
    ).toBe(200);
    await admin.post('/api/v1/users/groups/', { name: 'secret-b-team' }, ORG(orgB));

    const res = await admin.get('/api/v1/audits/operate-logs/?resource=ops-team&limit=10', ORG(DEFAULT_ORG_ID));
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.count).toBe(2);
    const [update, create] = page.results;
    expect(create).toMatchObject({
      user: 'Administrator(admin)',
      action: { value: 'create', label: 'Create' },
      resource_type: 'User group',
      resource: 'ops-team',
      remote_addr: '127.0.0.1',
      org_id: DEFAULT_ORG_ID,
      org_name: 'DEFAULT',
    });
    expect(update.action.value).toBe('update');
    // Filters by action and by the type as shown, or by the model name.
    expect(
      (await admin.get('/api/v1/audits/operate-logs/?resource=ops-team&action=update', ORG(DEFAULT_ORG_ID))).json(),
    ).toHaveLength(1);
    expect(
      (
        await admin.get(
          '/api/v1/audits/operate-logs/?resource_type=User%20group&resource=ops-team',
          ORG(DEFAULT_ORG_ID),
        )
      ).json(),
    ).toHaveLength(2);
    expect(
      (
        await admin.get('/api/v1/audits/operate-logs/?resource_type=usergroup&resource=ops-team', ORG(DEFAULT_ORG_ID))
      ).json(),
    ).toHaveLength(2);
    expect((await admin.get('/api/v1/audits/operate-logs/?search=ops-te', ORG(DEFAULT_ORG_ID))).json()).toHaveLength(2);
    // Labels in the reader's language.
    const zh = (
      await admin.get('/api/v1/audits/operate-logs/?resource=ops-team&action=create', {
        ...ORG(DEFAULT_ORG_ID),
        'accept-language': 'zh',
      })
    ).json();
    expect(zh[0].action.label).toBe('创建');

    // The other org's writes stay there; the global org sees both.
    const here = (await admin.get('/api/v1/audits/operate-logs/', ORG(DEFAULT_ORG_ID))).json();
    expect(here.some((r: { resource: string }) => r.resource === 'secret-b-team')).toBe(false);
    const root = (await admin.get('/api/v1/audits/operate-logs/', ORG(ROOT_ORG_ID))).json();
    expect(root.some((r: { resource: string }) => r.resource === 'secret-b-team')).toBe(true);

    // The detail and its diff; from org B the log is not found.
    const detail = await admin.get(`/api/v1/audits/operate-logs/${update.id}/?type=action_detail`, ORG(DEFAULT_ORG_ID));
    expect(detail.json()).toEqual({ diff: [{ field: 'Comment', before: '', after: 'on call' }] });
    const full = (await admin.get(`/api/v1/audits/operate-logs/${update.id}/`, ORG(DEFAULT_ORG_ID))).json();
    expect(full).toMatchObject({ id: update.id, resource: 'ops-team', org_name: 'DEFAULT' });
    const bob = await signIn('bob');
    expect((await bob.get(`/api/v1/audits/operate-logs/${update.id}/`, ORG(orgB))).statusCode).toBe(404);
    expect(
      (await bob.get('/api/v1/audits/operate-logs/', ORG(orgB))).json().map((r: { resource: string }) => r.resource),
    ).toContain('secret-b-team');
  });
});

describe('job logs', () => {
  it('answer the page shape (no executions in a fresh org) and describe their fields', async () => {
    expect((await admin.get('/api/v1/audits/job-logs/?limit=15', ORG(DEFAULT_ORG_ID))).json()).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
    expect((await admin.get('/api/v1/audits/job-logs/', ORG(DEFAULT_ORG_ID))).json()).toEqual([]);
    const meta = (
      await admin.request({ method: 'OPTIONS', url: '/api/v1/audits/job-logs/', headers: ORG(DEFAULT_ORG_ID) })
    ).json();
    expect(Object.keys(meta.actions.GET)).toContain('material');
  });
});

describe('online user sessions', () => {
  it('lists live web sign-ins of the org’s members and takes another’s offline, never one’s own', async () => {
    const mia = await admin.post(
      '/api/v1/users/users/',
      { name: 'Mia', username: 'mia', email: 'mia@example.com', password_strategy: 'custom', password: USER_PASSWORD },
      ORG(DEFAULT_ORG_ID),
    );
    expect(mia.statusCode).toBe(201);
    const miaClient = await signIn('mia', USER_PASSWORD, 'MiaBrowser/2.0');
    expect((await miaClient.get('/api/v1/users/profile/')).statusCode).toBe(200);

    const list = (await admin.get('/api/v1/audits/user-sessions/?limit=50', ORG(DEFAULT_ORG_ID))).json();
    const mine = list.results.filter((s: { user: { name: string } }) => s.user.name === 'Mia');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      type: { value: 'W', label: 'Web' },
      ip: '127.0.0.1',
      user_agent: 'MiaBrowser/2.0',
      user: { id: mia.json().id, name: 'Mia' },
      is_current_user_session: false,
      backend: 'password',
      backend_display: 'Password',
    });
    expect(mine[0].date_expired).toMatch(/^\d{4}\/\d{2}\/\d{2} /);
    const own = list.results.filter((s: { is_current_user_session: boolean }) => s.is_current_user_session);
    expect(own).toHaveLength(1);
    expect((await admin.get('/api/v1/audits/user-sessions/?ip=10.9.9.9', ORG(DEFAULT_ORG_ID))).json()).toEqual([]);

    // Org B's admin sees only org B's members (Bob), not Mia.
    const bob = await signIn('bob');
    const inB = (await bob.get('/api/v1/audits/user-sessions/', ORG(orgB))).json();
    expect(inB.every((s: { user: { name: string } }) => s.user.name === 'Bob')).toBe(true);
    expect(inB.length).toBeGreaterThan(0);
    const offB = await bob.post('/api/v1/audits/user-sessions/offline/', { ids: [mine[0].id] }, ORG(orgB));
    expect(offB.json()).toMatchObject({ count: 0 });
    expect((await miaClient.get('/api/v1/users/profile/')).statusCode).toBe(200);

    // Never one's own; bad input is a 400 in the user's language.
    const ownOff = await admin.post('/api/v1/audits/user-sessions/offline/', { ids: [own[0].id] }, ORG(DEFAULT_ORG_ID));
    expect(ownOff.statusCode).toBe(400);
    expect(ownOff.json()).toEqual({ ids: ['You cannot take your own session offline.'] });
    const bad = await admin.post('/api/v1/audits/user-sessions/offline/', { ids: 'x' }, ORG(DEFAULT_ORG_ID));
    expect(bad.statusCode).toBe(400);

    // Offline ends that sign-in: Mia's next request is anonymous.
    const off = await admin.post('/api/v1/audits/user-sessions/offline/', { ids: [mine[0].id] }, ORG(DEFAULT_ORG_ID));
    expect(off.json()).toMatchObject({ count: 1 });
    expect((await miaClient.get('/api/v1/users/profile/')).statusCode).toBe(401);
    const after = (await admin.get('/api/v1/audits/user-sessions/', ORG(DEFAULT_ORG_ID))).json();
    expect(after.some((s: { user: { name: string } }) => s.user.name === 'Mia')).toBe(false);
    expect((await admin.get('/api/v1/users/profile/')).statusCode).toBe(200);
  });

  it('leaves out sign-ins idle past SECURITY_MAX_IDLE_TIME, which the server refuses too', async () => {
    const nia = await admin.post(
      '/api/v1/users/users/',
      { name: 'Nia', username: 'nia', email: 'nia@example.com', password_strategy: 'custom', password: USER_PASSWORD },
      ORG(DEFAULT_ORG_ID),
    );
    expect(nia.statusCode).toBe(201);
    const niaClient = await signIn('nia', USER_PASSWORD, 'NiaBrowser/1.0');
    const listed = async () =>
      (
        (await admin.get('/api/v1/audits/user-sessions/?limit=100', ORG(DEFAULT_ORG_ID))).json().results as {
          user: { name: string };
        }[]
      ).some((s) => s.user.name === 'Nia');
    expect(await listed()).toBe(true);
    // Her last request 31 minutes ago (the default limit is 30): the cookie still lives, the session not.
    const idle = await t.deps.settings.get('SECURITY_MAX_IDLE_TIME');
    expect(idle).toBe(30);
    await t.deps.database.db
      .updateTable('auth_session')
      .set({ last_active: new Date(Date.now() - 31 * 60_000).toISOString() })
      .where('user_id', '=', nia.json().id)
      .execute();
    expect(await listed()).toBe(false);
    expect((await niaClient.get('/api/v1/users/profile/')).statusCode).toBe(401);
  });

  it('lets an org admin not sign out a superuser who is a member of their org', async () => {
    const bob = await signIn('bob');
    // The superuser becomes a member of org B too.
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    const orgUser = (await admin.get('/api/v1/rbac/org-roles/?name=OrgUser', ORG(orgB))).json()[0];
    expect(
      (await admin.post('/api/v1/rbac/org-role-bindings/', { user: adminId, role: orgUser.id }, ORG(orgB))).statusCode,
    ).toBe(201);
    const other = await adminClient(t.app);
    const sessions = (await bob.get('/api/v1/audits/user-sessions/', ORG(orgB))).json();
    const adminSessions = sessions.filter((s: { user: { id: string } }) => s.user.id === adminId);
    expect(adminSessions.length).toBeGreaterThan(0);
    const res = await bob.post(
      '/api/v1/audits/user-sessions/offline/',
      { ids: adminSessions.map((s: { id: string }) => s.id) },
      ORG(orgB),
    );
    expect(res.statusCode).toBe(403);
    expect((await other.get('/api/v1/users/profile/')).statusCode).toBe(200);
  });
});
