import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLES, BUILTIN_ROLE_IDS, ROOT_ORG_ID, hasPermission, type BuiltinRoleDef } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../testing/testApp.ts';

/**
 * The authorisation matrix (issue 6), generated from the route table: for every API route that
 * declares a permission, each builtin role in two organisations is allowed (any answer but 403,
 * and never a 5xx) exactly when its permissions satisfy the route; and no object of another
 * organisation can be listed, read, changed or deleted through any route, even by its id.
 */
let t: TestApp;
let admin: SessionClient;
let orgA: string;
let orgB: string;
const clients = new Map<string, SessionClient>();
const PASSWORD = 'Matrix-pass1';

async function makeUser(name: string, bindings: { role: string; org?: string }[]): Promise<SessionClient> {
  const db = t.deps.database.db;
  const created = (
    await admin.post(
      '/api/v1/users/users/',
      { name, username: name, email: `${name}@example.com`, password_strategy: 'custom', password: PASSWORD },
      { 'x-jms-org': orgA },
    )
  ).json();
  await db.deleteFrom('rbac_rolebinding').where('user_id', '=', created.id).execute();
  const now = new Date().toISOString();
  await db
    .insertInto('rbac_rolebinding')
    .values(
      bindings.map((b) => ({
        id: randomUUID(),
        user_id: created.id,
        role_id: b.role,
        scope: b.org ? ('org' as const) : ('system' as const),
        org_id: b.org ?? null,
        created_by: 'test',
        date_created: now,
      })),
    )
    .execute();
  const c = new SessionClient(t.app);
  const res = await c.login(name, PASSWORD);
  if (res.statusCode !== 200) throw new Error(`login ${name}: ${res.body}`);
  return c;
}

/** What a role holds in an org, from the contract's role definitions (not from the server's code). */
function expectedPerms(role: BuiltinRoleDef, memberOf: string, org: string): { all: boolean; perms: Set<string> } {
  if (role.id === BUILTIN_ROLE_IDS.SystemAdmin) return { all: true, perms: new Set() };
  const perms = new Set<string>();
  const orgUser = BUILTIN_ROLES.find((r) => r.id === BUILTIN_ROLE_IDS.OrgUser)!;
  if (role.scope === 'system') {
    role.permissions.forEach((p) => perms.add(p));
    if (org === memberOf) orgUser.permissions.forEach((p) => perms.add(p));
  } else if (org === memberOf) role.permissions.forEach((p) => perms.add(p));
  return { all: false, perms };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgA = (await admin.post('/api/v1/orgs/orgs/', { name: 'Org A' })).json().id;
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Org B' })).json().id;
  for (const role of BUILTIN_ROLES) {
    const bindings =
      role.scope === 'system'
        ? [{ role: role.id }, { role: BUILTIN_ROLE_IDS.OrgUser, org: orgA }]
        : [{ role: BUILTIN_ROLE_IDS.User }, { role: role.id, org: orgA }];
    clients.set(role.name, await makeUser(`m_${role.name.toLowerCase()}`, bindings));
  }
}, 120_000);
afterAll(async () => t.close());

const fill = (url: string, id: string) => url.replace(/:[a-z_]+/g, id);

describe('authorisation matrix', () => {
  it('allows or denies every guarded route for every builtin role, in two organisations', async () => {
    const routes = t.app.routeTable.filter((r) => r.perm !== undefined && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const role of BUILTIN_ROLES) {
      const client = clients.get(role.name)!;
      for (const org of [orgA, orgB]) {
        const exp = expectedPerms(role, orgA, org);
        for (const r of routes) {
          const allowed = exp.all || hasPermission(exp.perms, r.perm!);
          const payload = ['POST', 'PUT', 'PATCH'].includes(r.method) ? {} : undefined;
          const res = await client.request({
            method: r.method,
            url: fill(r.url, randomUUID()),
            headers: { 'x-jms-org': org },
            ...(payload ? { payload } : {}),
          });
          const ok = allowed ? res.statusCode !== 403 && res.statusCode < 500 : res.statusCode === 403;
          if (!ok)
            wrong.push(
              `${role.name} in ${org === orgA ? 'A' : 'B'}: ${r.method} ${r.url} (${JSON.stringify(r.perm)}) → ${res.statusCode}`,
            );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('leaves no API route unguarded: each declares a permission, is public, or serves the caller only', () => {
    // Routes that act on the caller's own data (profile, own MFA, own messages) or give what every
    // signed-in user needs (public settings, current org, categories, spm ids).
    const selfService = [
      /^\/api\/v1\/users\/profile\//,
      /^\/api\/v1\/authentication\//,
      /^\/api\/v1\/notifications\/site-messages\//,
      /^\/api\/v1\/settings\/public\/$/,
      /^\/api\/v1\/orgs\/orgs\/current\/$/,
      /^\/api\/v1\/assets\/categories\//,
      /^\/api\/v1\/common\/resources\/cache\/$/,
      /^\/api\/v1\/assets\/favorite-assets\/$/,
      /^\/api\/v1\/ops\/celery\/task\/:id\/$/,
    ];
    const unguarded = t.app.routeTable
      .filter((r) => r.perm === undefined && !r.public && r.method !== 'OPTIONS')
      .filter((r) => !selfService.some((re) => re.test(r.url)))
      .map((r) => `${r.method} ${r.url}`);
    expect(unguarded).toEqual([]);
  });

  it('never lets one organisation reach another’s objects, through any route', async () => {
    const group = (await admin.post('/api/v1/users/groups/', { name: 'secret-b' }, { 'x-jms-org': orgB })).json();
    const binding = (
      await admin.get(`/api/v1/rbac/org-role-bindings/?user__username=m_orgadmin`, { 'x-jms-org': orgA })
    ).json()[0];
    expect(binding).toBeDefined();
    const hostB = (
      await admin.post(
        '/api/v1/assets/hosts/',
        { name: 'host-b', address: '10.0.0.2', platform: 'Linux' },
        { 'x-jms-org': orgB },
      )
    ).json();
    const accountB = (
      await admin.post(
        '/api/v1/accounts/accounts/',
        { asset: hostB.id, username: 'root-b', secret: 'Secret-of-b-1' },
        { 'x-jms-org': orgB },
      )
    ).json();
    const templateB = (
      await admin.post('/api/v1/accounts/account-templates/', { name: 'tpl-b', username: 'b' }, { 'x-jms-org': orgB })
    ).json();
    expect([hostB.id, accountB.id, templateB.id].every(Boolean)).toBe(true);
    const foreign = [group.id, hostB.id, accountB.id, templateB.id];
    const idRoutes = t.app.routeTable.filter((r) => r.url.includes(':') && r.method !== 'OPTIONS');
    const listRoutes = t.app.routeTable.filter((r) => !r.url.includes(':') && r.method === 'GET');
    const leaks: string[] = [];
    for (const who of ['OrgAdmin', 'SystemAdmin'] as const) {
      const client = who === 'SystemAdmin' ? admin : clients.get(who)!;
      for (const r of idRoutes) {
        for (const id of foreign) {
          const payload = ['POST', 'PUT', 'PATCH'].includes(r.method) ? { name: 'stolen' } : undefined;
          const res = await client.request({
            method: r.method,
            url: fill(r.url, id),
            headers: { 'x-jms-org': orgA },
            ...(payload ? { payload } : {}),
          });
          if (res.statusCode < 300) leaks.push(`${who}: ${r.method} ${fill(r.url, id)} → ${res.statusCode}`);
        }
      }
      for (const r of listRoutes) {
        if (r.url.includes('/health/')) continue;
        const res = await client.request({ method: 'GET', url: r.url, headers: { 'x-jms-org': orgA } });
        if (foreign.some((id) => res.body.includes(id))) leaks.push(`${who}: GET ${r.url} lists an object of org B`);
      }
    }
    expect(leaks).toEqual([]);
    expect((await admin.get(`/api/v1/users/groups/${group.id}/`, { 'x-jms-org': orgB })).json().name).toBe('secret-b');
    expect((await admin.get(`/api/v1/users/groups/${group.id}/`, { 'x-jms-org': ROOT_ORG_ID })).statusCode).toBe(200);
  }, 120_000);
});
