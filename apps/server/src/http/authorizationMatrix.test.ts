import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILTIN_ROLES,
  BUILTIN_ROLE_IDS,
  CSRF_COOKIE,
  ROOT_ORG_ID,
  hasPermission,
  type BuiltinRoleDef,
} from '@gatehouse/contract';
import type { RouteRecord } from './routePerms.ts';
import { allDefs } from '../resource/registry.ts';
import type { ResourceDef } from '../resource/types.ts';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../test-support/testApp.ts';
import { seedSession } from '../../test-support/auditSeed.ts';

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

/**
 * Whether a role may work in an org it is not a member of: system roles that open the console or
 * the audit view work everywhere; anyone else naming a foreign org is refused (403 org_not_member).
 */
function entersEveryOrg(role: BuiltinRoleDef): boolean {
  return (
    role.scope === 'system' && (role.admin || hasPermission(role.permissions, 'rbac.view_console | rbac.view_audit'))
  );
}

/** What a role holds in an org, from the contract's role definitions (not from the server's code). */
function expectedPerms(role: BuiltinRoleDef, memberOf: string, org: string): { all: boolean; perms: Set<string> } {
  if (role.id === BUILTIN_ROLE_IDS.SystemAdmin) return { all: true, perms: new Set() };
  const perms = new Set<string>();
  const orgUser = BUILTIN_ROLES.find((r) => r.id === BUILTIN_ROLE_IDS.OrgUser)!;
  if (role.scope === 'system') {
    role.permissions.forEach((p) => perms.add(p));
    if (org === memberOf) orgUser.permissions.forEach((p) => perms.add(p));
  } else {
    // Org-role actors also hold the system role User (see beforeAll): its permissions hold everywhere.
    BUILTIN_ROLES.find((r) => r.id === BUILTIN_ROLE_IDS.User)!.permissions.forEach((p) => perms.add(p));
    if (org === memberOf) role.permissions.forEach((p) => perms.add(p));
  }
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

/** A state-changing GET carries the CSRF header as the console sends it (SessionClient adds it on unsafe methods only). */
const csrfFor = (client: SessionClient, r: RouteRecord): Record<string, string> =>
  r.changesState ? { 'x-csrftoken': client.jar.values.get(CSRF_COOKIE)! } : {};

describe('authorisation matrix', () => {
  it('allows or denies every guarded route for every builtin role, in two organisations', async () => {
    const routes = t.app.routeTable.filter((r) => r.perm !== undefined && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const role of BUILTIN_ROLES) {
      const client = clients.get(role.name)!;
      for (const org of [orgA, orgB]) {
        const exp = expectedPerms(role, orgA, org);
        const enters = org === orgA || entersEveryOrg(role);
        for (const r of routes) {
          const allowed = enters && (exp.all || hasPermission(exp.perms, r.perm!));
          const payload = ['POST', 'PUT', 'PATCH'].includes(r.method) ? {} : undefined;
          const res = await client.request({
            method: r.method,
            url: fill(r.url, randomUUID()),
            headers: { 'x-jms-org': org, ...csrfFor(client, r) },
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

  it('refuses a session GET that changes state without the CSRF header, as on unsafe methods', async () => {
    const stateful = t.app.routeTable.filter((r) => r.method === 'GET' && r.changesState);
    expect(stateful.map((r) => r.url)).toContain('/api/v1/users/users/:id/mfa/reset/');
    const victim = (await admin.get('/api/v1/users/users/?username=m_orguser', { 'x-jms-org': orgA })).json()[0];
    await t.deps.database.db.updateTable('users_user').set({ mfa_level: 1 }).where('id', '=', victim.id).execute();
    for (const r of stateful) {
      // A link on another site: the Lax cookie goes along, no header can.
      const forged = await admin.get(fill(r.url, victim.id), { 'x-jms-org': orgA });
      expect(forged.statusCode, r.url).toBe(401);
    }
    const stored = await t.deps.database.db
      .selectFrom('users_user')
      .select('mfa_level')
      .where('id', '=', victim.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.mfa_level)).toBe(1);
    const sent = await admin.get(`/api/v1/users/users/${victim.id}/mfa/reset/`, {
      'x-jms-org': orgA,
      'x-csrftoken': admin.jar.values.get(CSRF_COOKIE)!,
    });
    expect(sent.statusCode).toBe(200);
  });

  it('leaves no API route unguarded: each declares a permission, is public, or serves the caller only', () => {
    // Routes that act on the caller's own data (profile, own MFA, own messages) or give what every
    // signed-in user needs (public settings, current org, categories, spm ids).
    const selfService = [
      /^\/api\/v1\/users\/profile\//,
      /^\/api\/v1\/users\/preference\/$/,
      /^\/api\/v1\/authentication\//,
      /^\/api\/v1\/notifications\/site-messages\//,
      /^\/api\/v1\/settings\/public\/$/,
      /^\/api\/v1\/orgs\/orgs\/current\/$/,
      /^\/api\/v1\/assets\/categories\//,
      /^\/api\/v1\/common\/resources\/cache\/$/,
      /^\/api\/v1\/assets\/favorite-assets\/$/,
      /^\/api\/v1\/ops\/celery\/task\/:id\/$/,
      // The built-in gateway's connect methods (minus the caller's rejected ones) and its endpoint.
      /^\/api\/v1\/terminal\/components\/connect-methods\/$/,
      /^\/api\/v1\/terminal\/endpoints\/smart\/$/,
      // Sharing one's own running session, and joining a sharing by its verify code (sharing/sharingRoutes.ts).
      /^\/api\/v1\/terminal\/session-sharings\//,
      /^\/api\/v1\/terminal\/session-join-records\/(:id\/finished\/)?$/,
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
    const permB = (
      await admin.post(
        '/api/v1/perms/asset-permissions/',
        { name: 'perm-b', user_groups: [group.id], assets: [hostB.id] },
        { 'x-jms-org': orgB },
      )
    ).json();
    // A gateway session in B of the admin himself: his own sessions (`my-sessions/`) follow the org too.
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    const sessionB = await seedSession(t.deps.database.db, {
      user_id: adminId,
      asset: 'host-b',
      org_id: orgB,
      date_start: new Date().toISOString(),
    });
    expect([hostB.id, accountB.id, templateB.id, permB.id].every(Boolean)).toBe(true);
    const foreign = [group.id, hostB.id, accountB.id, templateB.id, permB.id, sessionB];
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

/**
 * "Actor grants a role it does not hold", for every route that carries roles: generated from the
 * resources whose fields write role bindings (the user form's `system_roles`/`org_roles`) and the
 * role-binding resources, on each of their write routes (create, update, bulk update; imports
 * post to the same routes). After each request no forbidden binding may exist.
 */
describe('role grants', () => {
  const roleFields = (def: ResourceDef) =>
    Object.entries(def.fields)
      .filter(([, f]) => f.m2m?.through?.table === 'rbac_rolebinding')
      .map(([name]) => name);

  it('never lets an actor grant a role it does not hold, through any route that carries roles', async () => {
    const db = t.deps.database.db;
    const now = new Date().toISOString();
    // An actor that may bind roles but holds little: it still cannot grant more than it has.
    const binderRole = randomUUID();
    await db
      .insertInto('rbac_role')
      .values({
        id: binderRole,
        name: 'Binder',
        scope: 'system',
        builtin: false,
        comment: '',
        created_by: 'test',
        updated_by: 'test',
        date_created: now,
        date_updated: now,
      })
      .execute();
    const binderPerms = [
      'rbac.view_console',
      'users.view_user',
      'users.add_user',
      'users.change_user',
      'rbac.view_rolebinding',
      'rbac.add_rolebinding',
      'rbac.change_rolebinding',
      'rbac.view_systemrolebinding',
      'rbac.add_systemrolebinding',
      'rbac.change_systemrolebinding',
      'rbac.view_orgrolebinding',
      'rbac.add_orgrolebinding',
      'rbac.change_orgrolebinding',
    ];
    await db
      .insertInto('rbac_role_permission')
      .values(binderPerms.map((permission) => ({ role_id: binderRole, permission })))
      .execute();
    const binder = await makeUser('m_binder', [{ role: BUILTIN_ROLE_IDS.User }, { role: binderRole }]);
    const actors = [
      { name: 'OrgAdmin', client: clients.get('OrgAdmin')! },
      { name: 'Binder', client: binder },
    ];
    const forbidden = [
      BUILTIN_ROLE_IDS.SystemAdmin,
      BUILTIN_ROLE_IDS.SystemAuditor,
      BUILTIN_ROLE_IDS.OrgAdmin,
      BUILTIN_ROLE_IDS.OrgAuditor,
    ];
    const target = (
      await admin.post(
        '/api/v1/users/users/',
        {
          name: 'grant_target',
          username: 'grant_target',
          email: 'gt@example.com',
          password_strategy: 'custom',
          password: PASSWORD,
        },
        { 'x-jms-org': orgA },
      )
    ).json().id as string;
    const targetBinding = (
      await db
        .selectFrom('rbac_rolebinding')
        .select('id')
        .where('user_id', '=', target)
        .where('scope', '=', 'org')
        .executeTakeFirstOrThrow()
    ).id;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('rbac_rolebinding')
            .innerJoin('users_user', 'users_user.id', 'rbac_rolebinding.user_id')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('role_id', 'in', forbidden)
            .where('users_user.username', 'not like', 'm_%')
            .where('users_user.username', '!=', 'admin')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();

    const requests: {
      method: string;
      url: string;
      body: (role: string, scope: 'system' | 'org', n: number) => unknown;
    }[] = [];
    const carrying = allDefs().filter((d) => roleFields(d).length || d.table === 'rbac_rolebinding');
    expect(carrying.map((d) => d.url)).toEqual(
      expect.arrayContaining([
        '/api/v1/users/users/',
        '/api/v1/rbac/role-bindings/',
        '/api/v1/rbac/system-role-bindings/',
      ]),
    );
    for (const def of carrying) {
      if (def.table === 'rbac_rolebinding') {
        requests.push({ method: 'POST', url: def.url, body: (role) => ({ user: target, role }) });
        for (const m of ['PUT', 'PATCH'])
          requests.push({ method: m, url: `${def.url}${targetBinding}/`, body: (role) => ({ user: target, role }) });
        continue;
      }
      const fields = (role: string, scope: 'system' | 'org') =>
        Object.fromEntries(
          roleFields(def)
            .map((f) => [f, f.startsWith(scope) ? [role] : []])
            .filter(([, v]) => (v as string[]).length),
        );
      requests.push({
        method: 'POST',
        url: def.url,
        body: (role, scope, n) => ({
          name: `g${n}`,
          username: `grant_new_${n}`,
          email: `grant_new_${n}@example.com`,
          password_strategy: 'custom',
          password: PASSWORD,
          ...fields(role, scope),
        }),
      });
      for (const m of ['PUT', 'PATCH']) {
        requests.push({
          method: m,
          url: `${def.url}${target}/`,
          body: (role, scope) => ({
            ...fields(role, scope),
            ...(m === 'PUT' ? { name: 'grant_target', username: 'grant_target', email: 'gt@example.com' } : {}),
          }),
        });
        requests.push({
          method: m,
          url: def.url,
          body: (role, scope) => [
            {
              id: target,
              ...fields(role, scope),
              ...(m === 'PUT' ? { name: 'grant_target', username: 'grant_target', email: 'gt@example.com' } : {}),
            },
          ],
        });
      }
    }
    const leaks: string[] = [];
    let n = 0;
    for (const actor of actors) {
      for (const r of requests) {
        for (const role of forbidden) {
          const scope = BUILTIN_ROLES.find((x) => x.id === role)!.scope;
          n += 1;
          const res = await actor.client.request({
            method: r.method,
            url: r.url,
            headers: { 'x-jms-org': orgA },
            payload: r.body(role, scope, n) as object,
          });
          if (res.statusCode >= 500) leaks.push(`${actor.name}: ${r.method} ${r.url} → ${res.statusCode}`);
          if ((await count()) !== before) {
            leaks.push(`${actor.name}: ${r.method} ${r.url} granted ${BUILTIN_ROLES.find((x) => x.id === role)!.name}`);
            await db
              .deleteFrom('rbac_rolebinding')
              .where('role_id', 'in', forbidden)
              .where('user_id', 'in', db.selectFrom('users_user').select('id').where('username', 'like', 'grant%'))
              .execute();
          }
        }
      }
    }
    expect(requests.length).toBeGreaterThanOrEqual(10);
    expect(leaks).toEqual([]);
    // The same grants by a superuser go through: the refusals above are about the actor.
    const ok = await admin.request({
      method: 'PATCH',
      url: `/api/v1/users/users/${target}/`,
      headers: { 'x-jms-org': orgA },
      payload: { system_roles: [BUILTIN_ROLE_IDS.User, BUILTIN_ROLE_IDS.SystemAuditor] },
    });
    expect(ok.statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
  }, 120_000);
});
