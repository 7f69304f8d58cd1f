import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, CSRF_COOKIE } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../test-support/testApp.ts';
import { customRole } from '../../test-support/roles.ts';

/**
 * The authorisation matrix, acting on users (issue 27, items 1–2): an actor acts on a user only
 * when it could have granted every role that user holds (rbac/userGuard.ts). As an organisation
 * admin, every route that acts on a user is tried against a member of the admin's own org who also
 * holds each builtin system role and a custom system role: each is refused and changes nothing;
 * the same routes on a plain member go through. The route table is read, so a new route that acts
 * on a user and is missing here fails the test.
 */
let t: TestApp;
let admin: SessionClient;
let orgAdmin: SessionClient;
let orgA: string;
let orgB: string;
const PASSWORD = 'Reach-pass1';
const U = '/api/v1/users/users/';
const db = () => t.deps.database.db;

interface Target {
  label: string;
  id: string;
  username: string;
  sessionId?: string;
}

async function createUser(username: string, systemRole: string, org: string): Promise<Target> {
  const res = await admin.post(
    U,
    { name: username, username, email: `${username}@example.com`, password_strategy: 'custom', password: PASSWORD },
    { 'x-jms-org': org },
  );
  if (res.statusCode !== 201) throw new Error(`create ${username}: ${res.body}`);
  const id = res.json().id as string;
  await db()
    .updateTable('rbac_rolebinding')
    .set({ role_id: systemRole })
    .where('user_id', '=', id)
    .where('scope', '=', 'system')
    .execute();
  return { label: username, id, username };
}

async function bind(userId: string, roleId: string, org: string | null): Promise<string> {
  const id = randomUUID();
  await db()
    .insertInto('rbac_rolebinding')
    .values({
      id,
      user_id: userId,
      role_id: roleId,
      scope: org ? 'org' : 'system',
      org_id: org,
      created_by: 'test',
      date_created: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** Everything about a user that a route acting on them could change. */
async function standing(id: string): Promise<string> {
  const user = await db()
    .selectFrom('users_user')
    .select(['password', 'email', 'name', 'is_active', 'mfa_level', 'otp_secret_key', 'public_key'])
    .where('id', '=', id)
    .executeTakeFirst();
  const bindings = await db()
    .selectFrom('rbac_rolebinding')
    .select(['role_id', 'scope', 'org_id'])
    .where('user_id', '=', id)
    .orderBy('role_id')
    .execute();
  const sessions = await db().selectFrom('auth_session').select('id').where('user_id', '=', id).execute();
  return JSON.stringify({ user, bindings, sessions: sessions.length });
}

const BINDINGS = [
  '/api/v1/rbac/role-bindings/',
  '/api/v1/rbac/org-role-bindings/',
  '/api/v1/rbac/system-role-bindings/',
];
const system = (url: string) => url.includes('system-');
const roleFor = (url: string) => (system(url) ? BUILTIN_ROLE_IDS.User : BUILTIN_ROLE_IDS.OrgAuditor);

/** The target's binding a binding route names: its User system role, or its membership of org A. */
async function bindingOf(userId: string, url: string): Promise<string> {
  let q = db().selectFrom('rbac_rolebinding').select('id').where('user_id', '=', userId);
  q = system(url)
    ? q.where('role_id', '=', BUILTIN_ROLE_IDS.User).where('scope', '=', 'system')
    : q.where('org_id', '=', orgA);
  return (await q.executeTakeFirstOrThrow()).id;
}

interface Case {
  method: string;
  url: string;
  /** The request as the org admin sends it, for a target. */
  send: (target: Target) => Promise<{ url: string; payload?: unknown; headers?: Record<string, string> }>;
}

const A = () => ({ 'x-jms-org': orgA });
const csrf = () => ({ 'x-csrftoken': orgAdmin.jar.values.get(CSRF_COOKIE)! });

const CASES: Case[] = [
  ...['PUT', 'PATCH'].map((method) => ({
    method,
    url: `${U}:id/password/`,
    send: async (x: Target) => ({ url: `${U}${x.id}/password/`, payload: { password: 'Taken-over-1' } }),
  })),
  ...['PUT', 'PATCH'].map((method) => ({
    method,
    url: `${U}:id/unblock/`,
    send: async (x: Target) => ({ url: `${U}${x.id}/unblock/`, payload: {} }),
  })),
  {
    method: 'GET',
    url: `${U}:id/mfa/reset/`,
    send: async (x) => ({ url: `${U}${x.id}/mfa/reset/`, headers: csrf() }),
  },
  {
    method: 'PATCH',
    url: `${U}:id/`,
    send: async (x) => ({ url: `${U}${x.id}/`, payload: { email: `taken-${x.username}@evil.test` } }),
  },
  {
    method: 'PUT',
    url: `${U}:id/`,
    send: async (x) => ({
      url: `${U}${x.id}/`,
      payload: { name: x.username, username: x.username, email: `taken-${x.username}@evil.test`, is_active: false },
    }),
  },
  { method: 'DELETE', url: `${U}:id/`, send: async (x) => ({ url: `${U}${x.id}/` }) },
  {
    method: 'PATCH',
    url: U,
    send: async (x) => ({ url: U, payload: [{ id: x.id, email: `taken-${x.username}@evil.test` }] }),
  },
  {
    method: 'PUT',
    url: U,
    send: async (x) => ({
      url: U,
      payload: [{ id: x.id, name: x.username, username: x.username, email: `taken-${x.username}@evil.test` }],
    }),
  },
  { method: 'DELETE', url: U, send: async (x) => ({ url: `${U}?ids=${x.id}` }) },
  { method: 'POST', url: `${U}:id/remove/`, send: async (x) => ({ url: `${U}${x.id}/remove/`, payload: {} }) },
  { method: 'POST', url: `${U}remove/`, send: async (x) => ({ url: `${U}remove/?ids=${x.id}`, payload: {} }) },
  {
    method: 'POST',
    url: `${U}invite/`,
    send: async (x) => ({ url: `${U}invite/`, payload: { users: [x.id], org_roles: [BUILTIN_ROLE_IDS.OrgAuditor] } }),
  },
  ...BINDINGS.map((url) => ({
    method: 'POST',
    url,
    send: async (x: Target) => ({ url, payload: { user: x.id, role: roleFor(url) } }),
  })),
  ...['PUT', 'PATCH'].flatMap((method) =>
    BINDINGS.map((url) => ({
      method,
      url,
      send: async (x: Target) => ({
        url,
        payload: [{ id: await bindingOf(x.id, url), user: x.id, role: roleFor(url) }],
      }),
    })),
  ),
  ...BINDINGS.map((url) => ({
    method: 'DELETE',
    url,
    send: async (x: Target) => ({ url: `${url}?ids=${await bindingOf(x.id, url)}` }),
  })),
  ...['PUT', 'PATCH', 'DELETE'].flatMap((method) =>
    BINDINGS.map((base) => ({
      method,
      url: `${base}:id/`,
      send: async (x: Target) => ({
        url: `${base}${await bindingOf(x.id, base)}/`,
        payload: method === 'DELETE' ? undefined : { user: x.id, role: roleFor(base) },
      }),
    })),
  ),
  {
    method: 'POST',
    url: '/api/v1/audits/user-sessions/offline/',
    send: async (x) => ({ url: '/api/v1/audits/user-sessions/offline/', payload: { ids: [x.sessionId] } }),
  },
];

/** Routes that act on a user: writes under users/users/, role bindings, sign-outs, state-changing GETs. */
function actingRoutes(): string[] {
  // Creating a user and parsing an import file act on no existing user.
  const excluded = new Set([`POST ${U}`, ...[U, ...BINDINGS].map((u) => `POST ${u}render-to-json/`)]);
  return t.app.routeTable
    .filter(
      (r) =>
        ((r.url.startsWith(U) || /^\/api\/v1\/rbac\/(org-|system-)?role-bindings\//.test(r.url)) &&
          (r.method !== 'GET' || r.changesState)) ||
        r.url === '/api/v1/audits/user-sessions/offline/',
    )
    .map((r) => `${r.method} ${r.url}`)
    .filter((k) => !excluded.has(k) && !k.startsWith('OPTIONS'))
    .sort();
}

const targets: Target[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgA = (await admin.post('/api/v1/orgs/orgs/', { name: 'Reach A' })).json().id;
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Reach B' })).json().id;
  const oa = await createUser('reach_orgadmin', BUILTIN_ROLE_IDS.User, orgA);
  await db()
    .updateTable('rbac_rolebinding')
    .set({ role_id: BUILTIN_ROLE_IDS.OrgAdmin })
    .where('user_id', '=', oa.id)
    .where('scope', '=', 'org')
    .execute();
  orgAdmin = new SessionClient(t.app);
  expect((await orgAdmin.login(oa.username, PASSWORD)).statusCode).toBe(200);

  const custom = await customRole(db(), 'Reach custom', 'system', ['rbac.view_audit', 'audits.view_userloginlog']);
  const roles: [string, string][] = [
    ['superuser', BUILTIN_ROLE_IDS.SystemAdmin],
    ['auditor', BUILTIN_ROLE_IDS.SystemAuditor],
    ['component', BUILTIN_ROLE_IDS.SystemComponent],
    ['custom', custom],
  ];
  for (const [label, role] of roles) {
    const x = await createUser(`reach_${label}`, BUILTIN_ROLE_IDS.User, orgA);
    await bind(x.id, role, null);
    targets.push({ ...x, label });
  }
  for (const x of targets) {
    const c = new SessionClient(t.app);
    if ((await c.login(x.username, PASSWORD)).statusCode === 200)
      x.sessionId = (await db().selectFrom('auth_session').select('id').where('user_id', '=', x.id).executeTakeFirst())
        ?.id;
    // A component account may not sign in to the console: give it a session row to end.
    x.sessionId ??= await insertSession(x.id);
  }
}, 60_000);
afterAll(async () => t.close());

async function insertSession(userId: string): Promise<string> {
  const base = await db().selectFrom('auth_session').selectAll().limit(1).executeTakeFirstOrThrow();
  const id = randomUUID();
  await db()
    .insertInto('auth_session')
    .values({ ...base, id, user_id: userId })
    .execute();
  return id;
}

describe('acting on a user the actor could not have granted', () => {
  it('covers every route that acts on a user', () => {
    expect(actingRoutes()).toEqual(CASES.map((c) => `${c.method} ${c.url}`).sort());
  });

  it('refuses an org admin every such route against a member holding a system role, changing nothing', async () => {
    const leaks: string[] = [];
    for (const x of targets) {
      for (const c of CASES) {
        const before = await standing(x.id);
        const req = await c.send(x);
        const res = await orgAdmin.request({
          method: c.method,
          url: req.url,
          headers: { ...A(), ...req.headers },
          payload: req.payload as object,
        });
        const after = await standing(x.id);
        if (res.statusCode < 400 || res.statusCode >= 500 || after !== before)
          leaks.push(`${c.method} ${c.url} on ${x.label}: ${res.statusCode}${after !== before ? ' (changed)' : ''}`);
      }
    }
    expect(leaks).toEqual([]);
  }, 120_000);

  it('lets the same routes through on a plain member, with reasons in the refusals above', async () => {
    const plain = await createUser('reach_plain', BUILTIN_ROLE_IDS.User, orgA);
    const ok = async (method: string, url: string, payload?: object, headers?: Record<string, string>) =>
      (await orgAdmin.request({ method, url, headers: { ...A(), ...headers }, payload })).statusCode;
    expect(await ok('PUT', `${U}${plain.id}/password/`, { password: 'Plain-member-1' })).toBe(200);
    expect(await ok('PATCH', `${U}${plain.id}/`, { email: 'plain-new@example.com' })).toBe(200);
    expect(await ok('GET', `${U}${plain.id}/mfa/reset/`, undefined, csrf())).toBe(200);
    expect(await ok('POST', `${U}${plain.id}/remove/`, {})).toBe(204);
    const auditor = targets.find((x) => x.label === 'auditor')!;
    const refused = await orgAdmin.request({
      method: 'PUT',
      url: `${U}${auditor.id}/password/`,
      headers: A(),
      payload: { password: 'Taken-over-1' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/could not grant/);
  });
});

describe('invitations and suggestions', () => {
  it('shows and accepts only users whose system standing the inviter could have granted', async () => {
    const outsiderAuditor = await createUser('invitee_auditor', BUILTIN_ROLE_IDS.SystemAuditor, orgB);
    const outsiderComponent = await createUser('invitee_component', BUILTIN_ROLE_IDS.SystemComponent, orgB);
    const outsiderPlain = await createUser('invitee_plain', BUILTIN_ROLE_IDS.User, orgB);
    const names = (await orgAdmin.get(`${U}suggestions/?search=invitee_`, A())).json() as { username: string }[];
    expect(names.map((u) => u.username)).toEqual(['invitee_plain']);
    // The superuser still sees everyone.
    const all = (await admin.get(`${U}suggestions/?search=invitee_`, A())).json() as unknown[];
    expect(all).toHaveLength(3);

    for (const x of [outsiderAuditor, outsiderComponent]) {
      const before = await standing(x.id);
      const res = await orgAdmin.post(`${U}invite/`, { users: [x.id], org_roles: [BUILTIN_ROLE_IDS.OrgUser] }, A());
      expect(res.statusCode).toBe(400);
      expect(await standing(x.id)).toBe(before);
    }
    const res = await orgAdmin.post(
      `${U}invite/`,
      { users: [outsiderPlain.id], org_roles: [BUILTIN_ROLE_IDS.OrgUser] },
      A(),
    );
    expect(res.statusCode).toBe(201);
    // Invited, the plain user is a member of an org the admin does not administer: still out of reach.
    const pw = await orgAdmin.request({
      method: 'PUT',
      url: `${U}${outsiderPlain.id}/password/`,
      headers: A(),
      payload: { password: 'Taken-over-1' },
    });
    expect(pw.statusCode).toBe(403);
  });

  it('does not let hidden users crowd the ten suggestions out', async () => {
    for (let i = 0; i < 12; i++)
      await createUser(`crowd_a${String(i).padStart(2, '0')}`, BUILTIN_ROLE_IDS.SystemAuditor, orgB);
    await createUser('crowd_z_plain', BUILTIN_ROLE_IDS.User, orgB);
    const names = (await orgAdmin.get(`${U}suggestions/?search=crowd_`, A())).json() as { username: string }[];
    expect(names.map((u) => u.username)).toEqual(['crowd_z_plain']);
  });
});
