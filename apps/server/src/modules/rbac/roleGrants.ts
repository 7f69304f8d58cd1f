import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  BUILTIN_ROLE_IDS,
  BUILTIN_ROLE_LABELS,
  BUILTIN_ROLES,
  ROOT_ORG_ID,
  type BuiltinRoleName,
  type Language,
  type RoleScope,
} from '@gatehouse/contract';
import { can, requestPerms } from '../../http/permissions.ts';
import { effectivePerms } from '../../http/rbac.ts';
import type { DB } from '../../platform/db/schema.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type rbacMessages from '../../platform/i18n/locales/en/rbac.json';

/**
 * The one rule for every write of a role binding (the user form's `system_roles`/`org_roles` on
 * create, update, bulk update and import; the role-binding routes): **no one grants a role or a
 * permission they could not grant through the roles pages**.
 * - binding a role of a scope needs `rbac.add_<scope>rolebinding` (the user form drops the role
 *   fields of a caller without it);
 * - a system role is granted only with the caller's system-level permissions (its permissions
 *   apply in every organisation), an org role with the caller's permissions in the request's org;
 * - every permission of the role must be one the caller holds there; SystemAdmin (everything) is
 *   therefore granted by superusers only.
 */

const MSG = catalogue<typeof rbacMessages>('rbac');

export const bindingPerm = (scope: RoleScope): string => `rbac.add_${scope}rolebinding`;

/** Whether the caller may bind roles of this scope at all (the user form keeps its role fields). */
export function mayBind(req: FastifyRequest, scope: RoleScope): Promise<boolean> {
  return can(req, bindingPerm(scope));
}

export async function permissionsOf(
  db: Kysely<DB>,
  roleId: string,
  lang: Language,
): Promise<{ name: string; perms: string[] } | undefined> {
  const builtin = BUILTIN_ROLES.find((r) => r.id === roleId);
  if (builtin)
    return {
      name: BUILTIN_ROLE_LABELS[builtin.name as BuiltinRoleName]?.[lang] ?? builtin.name,
      perms: [...builtin.permissions],
    };
  const role = await db.selectFrom('rbac_role').select(['id', 'name']).where('id', '=', roleId).executeTakeFirst();
  if (!role) return undefined;
  const rows = await db.selectFrom('rbac_role_permission').select('permission').where('role_id', '=', roleId).execute();
  return { name: role.name, perms: rows.map((r) => r.permission) };
}

/**
 * Checks that the caller may grant each of `roleIds` (roles of `scope`); returns the message of
 * the first refusal, in the caller's language, or undefined. Roles the target already holds are
 * not passed here (keeping a role is no grant).
 */
export async function refuseGrant(
  req: FastifyRequest,
  roleIds: readonly string[],
  scope: RoleScope,
): Promise<string | undefined> {
  if (!roleIds.length) return undefined;
  const mine = await requestPerms(req);
  if (mine.isSuperuser) return undefined;
  const held = scope === 'system' ? (await effectivePerms(req.db, req.user!.id, ROOT_ORG_ID)).perms : mine.perms;
  const heldSet = new Set(held);
  for (const id of roleIds) {
    const role = await permissionsOf(req.db, id, req.lang);
    if (!role) return tr(req.lang, MSG.unknown, { role: id });
    if (id === BUILTIN_ROLE_IDS.SystemAdmin || role.perms.some((p) => !heldSet.has(p)))
      return tr(req.lang, MSG.exceeds, { role: role.name });
  }
  return undefined;
}
