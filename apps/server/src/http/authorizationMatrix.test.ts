import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLES, BUILTIN_ROLE_IDS, CSRF_COOKIE, hasPermission, type BuiltinRoleDef } from '@gatehouse/contract';
import type { RouteRecord } from './routePerms.ts';
import type { SessionClient, TestApp } from '../../test-support/testApp.ts';
import { matrixWorld } from '../../test-support/matrixActors.ts';

/**
 * The authorisation matrix (issue 6), generated from the route table: for every API route that
 * declares a permission, each builtin role in two organisations is allowed (any answer but 403,
 * and never a 5xx) exactly when its permissions satisfy the route. That no object of another
 * organisation can be reached, and that no role can be granted by who does not hold it:
 * `orgScopeMatrix.test.ts` (a file of its own, so the two run side by side).
 */
let t: TestApp;
let admin: SessionClient;
let orgA: string;
let orgB: string;
const clients = new Map<string, SessionClient>();

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
  const world = await matrixWorld();
  ({ t, admin, orgA, orgB } = world);
  for (const role of BUILTIN_ROLES) clients.set(role.name, await world.roleUser(role));
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
      // Which message backends can send now (the original's IsValidUser).
      /^\/api\/v1\/notifications\/backends\/$/,
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
});
