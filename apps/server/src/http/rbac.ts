import type { Kysely } from 'kysely';
import {
  ALL_PERMISSIONS,
  BUILTIN_ROLES,
  BUILTIN_ROLE_IDS,
  DEFAULT_ORG_ID,
  ROOT_ORG_ID,
  SYSTEM_ORG_ID,
  isOnlySystemPermission,
  type OrgRef,
  type RoleScope,
} from '@gatehouse/contract';
import type { DB } from '../platform/db/schema.ts';

/** Permission evaluation of the JumpServer API. */

export interface BindingRow {
  role_id: string;
  scope: RoleScope;
  org_id: string | null;
}

const BUILTIN_BY_ID = new Map(BUILTIN_ROLES.map((r) => [r.id, r]));
const ADMIN_ROLE_IDS = new Set([BUILTIN_ROLE_IDS.SystemAdmin, BUILTIN_ROLE_IDS.OrgAdmin]);

export async function userBindings(db: Kysely<DB>, userId: string): Promise<BindingRow[]> {
  return db
    .selectFrom('rbac_rolebinding')
    .select(['role_id', 'scope', 'org_id'])
    .where('user_id', '=', userId)
    .execute();
}

async function rolePermissions(db: Kysely<DB>, roleIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const custom: string[] = [];
  for (const id of roleIds) {
    const builtin = BUILTIN_BY_ID.get(id);
    if (builtin) out.set(id, [...builtin.permissions]);
    else custom.push(id);
  }
  if (custom.length) {
    const rows = await db
      .selectFrom('rbac_role_permission')
      .select(['role_id', 'permission'])
      .where('role_id', 'in', custom)
      .execute();
    for (const id of custom) out.set(id, []);
    for (const r of rows) out.get(r.role_id)!.push(r.permission);
  }
  return out;
}

export interface EffectivePerms {
  perms: string[];
  isSuperuser: boolean;
  isOrgAdmin: boolean;
}

/**
 * Permissions in an organisation: system bindings plus the org's bindings (none in ROOT). An
 * admin role grants everything of its scope; other roles are cleaned of permissions their scope
 * cannot hold. SystemAdmin is the superuser.
 */
export async function effectivePerms(
  db: Kysely<DB>,
  userId: string,
  orgId: string,
  bindings?: BindingRow[],
): Promise<EffectivePerms> {
  const all = bindings ?? (await userBindings(db, userId));
  const visible = all.filter((b) => b.scope === 'system' || (orgId !== ROOT_ORG_ID && b.org_id === orgId));
  const isSuperuser = all.some((b) => b.role_id === BUILTIN_ROLE_IDS.SystemAdmin && b.scope === 'system');
  const isOrgAdmin = isSuperuser || visible.some((b) => b.role_id === BUILTIN_ROLE_IDS.OrgAdmin);
  if (isSuperuser) return { perms: [...ALL_PERMISSIONS], isSuperuser, isOrgAdmin };
  const byRole = await rolePermissions(db, [...new Set(visible.map((b) => b.role_id))]);
  const perms = new Set<string>();
  for (const b of visible) {
    for (const p of byRole.get(b.role_id) ?? []) if (b.scope === 'system' || !isOnlySystemPermission(p)) perms.add(p);
  }
  return { perms: [...perms].sort(), isSuperuser, isOrgAdmin };
}

async function rolesGranting(db: Kysely<DB>, perm: string): Promise<Set<string>> {
  const ids = new Set<string>(ADMIN_ROLE_IDS);
  for (const r of BUILTIN_ROLES) if (r.permissions.includes(perm)) ids.add(r.id);
  const rows = await db.selectFrom('rbac_role_permission').select('role_id').where('permission', '=', perm).execute();
  for (const r of rows) ids.add(r.role_id);
  return ids;
}

export type ViewName = 'console' | 'audit' | 'workbench';

const VIEW_PERM: Record<ViewName, string> = {
  console: 'rbac.view_console',
  audit: 'rbac.view_audit',
  workbench: 'rbac.view_workbench',
};

function orgRef(o: { id: string; name: string }): OrgRef {
  return { id: o.id, name: o.name, is_default: o.id === DEFAULT_ORG_ID, is_root: o.id === ROOT_ORG_ID };
}

/**
 * The organisations a user may use a view in: orgs where a binding grants
 * the view's permission (a system binding grants every candidate org), DEFAULT first then by name,
 * with the global org in front for holders of orgs.view_rootorg (console, audit) or
 * orgs.view_alljoinedorg (workbench, as "All organizations"). The system-setting org holds no
 * business objects and is never offered.
 */
export async function orgsForView(
  db: Kysely<DB>,
  userId: string,
  view: ViewName,
  currentPerms: ReadonlySet<string>,
  names: { global: string; allJoined: string },
  bindings?: BindingRow[],
): Promise<OrgRef[]> {
  const all = bindings ?? (await userBindings(db, userId));
  const granting = await rolesGranting(db, VIEW_PERM[view]);
  const relevant = all.filter((b) => granting.has(b.role_id));
  const joined = new Set(all.filter((b) => b.scope === 'org' && b.org_id).map((b) => b.org_id!));
  let orgs = await db.selectFrom('orgs_organization').select(['id', 'name']).where('id', '!=', SYSTEM_ORG_ID).execute();
  if (view === 'workbench') orgs = orgs.filter((o) => joined.has(o.id));
  const allowed = relevant.some((b) => b.scope === 'system')
    ? orgs
    : orgs.filter((o) => relevant.some((b) => b.org_id === o.id));
  allowed.sort((a, b) => (a.id === DEFAULT_ORG_ID ? -1 : b.id === DEFAULT_ORG_ID ? 1 : a.name.localeCompare(b.name)));
  const refs = allowed.map(orgRef);
  if (view !== 'workbench' && currentPerms.has('orgs.view_rootorg'))
    refs.unshift(orgRef({ id: ROOT_ORG_ID, name: names.global }));
  if (view === 'workbench' && currentPerms.has('orgs.view_alljoinedorg') && refs.length > 0) {
    refs.unshift(orgRef({ id: ROOT_ORG_ID, name: names.allJoined }));
  }
  return refs;
}
