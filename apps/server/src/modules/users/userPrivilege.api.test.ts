import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, CSRF_COOKIE } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/**
 * Issue 11, privilege: an org admin cannot grant roles through the user routes, cannot act on a
 * superuser or on a member of an org they do not administer, and cannot read or name another org.
 */
let t: TestApp;
let admin: SessionClient;
let orgAdmin: SessionClient;
let orgA: string;
let orgB: string;
const U = '/api/v1/users/users/';
const PASSWORD = 'Privilege-pass1';
const A = () => ({ 'x-jms-org': orgA });

async function createIn(org: string, username: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await admin.post(
    U,
    {
      name: username,
      username,
      email: `${username}@example.com`,
      password_strategy: 'custom',
      password: PASSWORD,
      ...extra,
    },
    { 'x-jms-org': org },
  );
  if (res.statusCode !== 201) throw new Error(`create ${username}: ${res.body}`);
  return res.json().id as string;
}

async function addToOrg(userId: string, org: string): Promise<void> {
  await t.deps.database.db
    .insertInto('rbac_rolebinding')
    .values({
      id: crypto.randomUUID(),
      user_id: userId,
      role_id: BUILTIN_ROLE_IDS.OrgUser,
      scope: 'org',
      org_id: org,
      created_by: 'test',
      date_created: new Date().toISOString(),
    })
    .execute();
}

async function rolesOf(userId: string): Promise<string[]> {
  const rows = await t.deps.database.db
    .selectFrom('rbac_rolebinding')
    .select('role_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.role_id).sort();
}

async function signIn(username: string, password = PASSWORD) {
  const c = new SessionClient(t.app);
  return { c, res: await c.login(username, password) };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgA = (await admin.post('/api/v1/orgs/orgs/', { name: 'Priv A' })).json().id;
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Priv B' })).json().id;
  await createIn(orgA, 'p_orgadmin', { org_roles: [BUILTIN_ROLE_IDS.OrgAdmin] });
  const signed = await signIn('p_orgadmin');
  expect(signed.res.statusCode).toBe(200);
  orgAdmin = signed.c;
}, 60_000);
afterAll(async () => t.close());

describe('an org admin granting roles', () => {
  it('cannot create a superuser: the role fields are dropped (single create and import)', async () => {
    const body = (username: string) => ({
      name: username,
      username,
      email: `${username}@example.com`,
      password_strategy: 'custom',
      password: PASSWORD,
      system_roles: [BUILTIN_ROLE_IDS.SystemAdmin],
      org_roles: [BUILTIN_ROLE_IDS.OrgAdmin],
    });
    const one = await orgAdmin.post(U, body('p_new1'), A());
    expect(one.statusCode).toBe(201);
    expect(one.json().is_superuser).toBe(false);
    // The import posts the rows as a list to the same route.
    const many = await orgAdmin.post(U, [body('p_new2'), body('p_new3')], A());
    expect(many.statusCode).toBe(201);
    for (const id of [one.json().id, ...many.json().map((u: { id: string }) => u.id)])
      expect(await rolesOf(id)).toEqual([BUILTIN_ROLE_IDS.User, BUILTIN_ROLE_IDS.OrgUser].sort());
    const { res } = await signIn('p_new1');
    expect(res.statusCode).toBe(200);
  });

  it('cannot raise a member with PATCH, PUT or a bulk update', async () => {
    const id = await createIn(orgA, 'p_member');
    const grant = { system_roles: [BUILTIN_ROLE_IDS.SystemAdmin], org_roles: [BUILTIN_ROLE_IDS.OrgAdmin] };
    expect(
      (await orgAdmin.request({ method: 'PATCH', url: `${U}${id}/`, headers: A(), payload: grant })).statusCode,
    ).toBe(200);
    expect(
      (await orgAdmin.request({ method: 'PATCH', url: U, headers: A(), payload: [{ id, ...grant }] })).statusCode,
    ).toBe(200);
    const put = { name: 'p_member', username: 'p_member', email: 'p_member@example.com', ...grant };
    expect((await orgAdmin.request({ method: 'PUT', url: `${U}${id}/`, headers: A(), payload: put })).statusCode).toBe(
      200,
    );
    expect(await rolesOf(id)).toEqual([BUILTIN_ROLE_IDS.User, BUILTIN_ROLE_IDS.OrgUser].sort());
    const detail = (await admin.get(`${U}${id}/`, A())).json();
    expect(detail.is_superuser).toBe(false);
    expect(detail.is_org_admin).toBe(false);
  });

  it('cannot bind roles through the role-binding routes either', async () => {
    const id = await createIn(orgA, 'p_bound');
    for (const [url, role] of [
      ['/api/v1/rbac/role-bindings/', BUILTIN_ROLE_IDS.SystemAdmin],
      ['/api/v1/rbac/system-role-bindings/', BUILTIN_ROLE_IDS.SystemAdmin],
      ['/api/v1/rbac/org-role-bindings/', BUILTIN_ROLE_IDS.OrgAdmin],
    ] as const)
      expect((await orgAdmin.post(url, { user: id, role }, A())).statusCode).toBe(403);
    expect(await rolesOf(id)).toEqual([BUILTIN_ROLE_IDS.User, BUILTIN_ROLE_IDS.OrgUser].sort());
  });
});

describe('one guard for every action on a user', () => {
  const actions = (id: string) => [
    { method: 'PUT', url: `${U}${id}/password/`, payload: { password: 'Taken-over1' } },
    { method: 'PATCH', url: `${U}${id}/`, payload: { password: 'Taken-over1' } },
    { method: 'PATCH', url: U, payload: [{ id, password: 'Taken-over1' }] },
    { method: 'GET', url: `${U}${id}/mfa/reset/`, csrf: true },
    { method: 'PUT', url: `${U}${id}/unblock/`, payload: {} },
    { method: 'POST', url: `${U}${id}/remove/`, payload: {} },
  ];
  const run = (c: SessionClient, a: ReturnType<typeof actions>[number]) =>
    c.request({
      method: a.method,
      url: a.url,
      headers: { ...A(), ...(a.csrf ? { 'x-csrftoken': c.jar.values.get(CSRF_COOKIE)! } : {}) },
      ...(a.payload ? { payload: a.payload } : {}),
    });

  it('refuses an org admin every action on a superuser who is a member of the org', async () => {
    const id = await createIn(orgA, 'p_super', {
      system_roles: [BUILTIN_ROLE_IDS.SystemAdmin],
      org_roles: [BUILTIN_ROLE_IDS.OrgUser],
    });
    await t.deps.database.db.updateTable('users_user').set({ mfa_level: 1 }).where('id', '=', id).execute();
    for (const a of actions(id)) expect((await run(orgAdmin, a)).statusCode, `${a.method} ${a.url}`).toBe(403);
    expect((await signIn('p_super', 'Taken-over1')).res.statusCode).toBe(400);
    expect((await signIn('p_super')).res.statusCode).toBe(200);
    expect(await rolesOf(id)).toContain(BUILTIN_ROLE_IDS.SystemAdmin);
  });

  it('refuses an org admin a member of another org too; a superuser may', async () => {
    const id = await createIn(orgA, 'p_shared');
    await addToOrg(id, orgB);
    for (const a of actions(id)) expect((await run(orgAdmin, a)).statusCode, `${a.method} ${a.url}`).toBe(403);
    expect((await run(admin, actions(id)[0]!)).statusCode).toBe(200);
  });

  it('lets an org admin act on a member of their org only', async () => {
    const id = await createIn(orgA, 'p_local');
    expect((await run(orgAdmin, actions(id)[0]!)).statusCode).toBe(200);
    expect((await signIn('p_local', 'Taken-over1')).res.statusCode).toBe(200);
  });
});

describe('another organisation', () => {
  it('hides the activities and operate-log detail of a user who belongs to another org only', async () => {
    const id = await createIn(orgB, 'p_foreign');
    const seen = (await admin.get(`/api/v1/audits/activities/?resource_id=${id}`, { 'x-jms-org': orgB })).json();
    expect(seen.length).toBeGreaterThan(0);
    const detail = seen.find((a: { detail_url: string }) => a.detail_url).detail_url as string;
    expect((await orgAdmin.get(`/api/v1/audits/activities/?resource_id=${id}`, A())).json()).toEqual([]);
    expect((await orgAdmin.get(detail, A())).statusCode).toBe(404);
    expect((await admin.get(detail, { 'x-jms-org': orgB })).statusCode).toBe(200);
  });

  it('refuses a request that names an org the caller does not belong to, by header, ?oid or cookie', async () => {
    const plainId = await createIn(orgA, 'p_plain');
    expect(plainId).toBeTruthy();
    const { c } = await signIn('p_plain');
    const refused = await c.get('/api/v1/orgs/orgs/current/', { 'x-jms-org': orgB });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'org_not_member' });
    // The refusal repeats what was sent, never the name of an org the caller may not see.
    expect(refused.json().detail).toContain(orgB);
    expect(refused.body).not.toContain('Priv B');
    expect((await c.get(`/api/v1/orgs/orgs/current/?oid=${orgB}`)).statusCode).toBe(403);
    expect(
      (await c.get('/api/v1/orgs/orgs/current/', { cookie: `${c.jar.header()}; X-JMS-ORG=${orgB}` })).statusCode,
    ).toBe(403);
    expect((await orgAdmin.get(`${U}`, { 'x-jms-org': orgB })).statusCode).toBe(403);
    // Its own org, DEFAULT (what naming nothing gives), and the profile (which lists the orgs) answer.
    expect((await c.get('/api/v1/orgs/orgs/current/', A())).json().id).toBe(orgA);
    expect((await c.get('/api/v1/orgs/orgs/current/', { 'x-jms-org': 'default' })).statusCode).toBe(200);
    expect((await c.get('/api/v1/users/profile/', { 'x-jms-org': orgB })).statusCode).toBe(200);
    // A system-level admin enters any org.
    expect((await admin.get('/api/v1/orgs/orgs/current/', { 'x-jms-org': orgB })).json().id).toBe(orgB);
  });
});
