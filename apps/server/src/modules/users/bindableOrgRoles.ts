import type { FastifyRequest } from 'fastify';
import { BUILTIN_ROLES, isOnlySystemPermission, text, translator } from '@gatehouse/contract';
import { requestPerms } from '../../http/permissions.ts';
import { displayName } from '../rbac/roleResource.ts';
import { rt } from '../../resource/messages.ts';

const M = {
  escalation: text(
    'You cannot give the role "{role}": it holds permissions you do not have',
    '不能授予角色“{role}”：它包含您没有的权限',
    'ロール「{role}」は付与できません。あなたが持たない権限が含まれています',
  ),
};
const msg = translator(M);
const BUILTIN = new Map(BUILTIN_ROLES.map((r) => [r.id, r]));

/**
 * Why the caller may not bind these org roles in the request's org, or undefined when he may:
 * every id must be an org role, and (but for superusers) no role may hold a permission the caller
 * lacks in this org — an admin role (OrgAdmin) only by org admins. The one check of "may give
 * these org roles" for every route that binds them.
 */
export async function orgRolesCallerCannotBind(req: FastifyRequest, roleIds: string[]): Promise<string | undefined> {
  if (!roleIds.length) return undefined;
  const roles = await req.db
    .selectFrom('rbac_role')
    .select(['id', 'name', 'scope', 'builtin'])
    .where('id', 'in', roleIds)
    .where('scope', '=', 'org')
    .execute();
  const missing = roleIds.find((id) => !roles.some((r) => r.id === id));
  if (missing) return rt(req.lang, 'invalid_pk', { pk: missing });
  const caller = await requestPerms(req);
  if (caller.isSuperuser) return undefined;
  const held = new Set(caller.perms);
  const custom = await req.db
    .selectFrom('rbac_role_permission')
    .select(['role_id', 'permission'])
    .where('role_id', 'in', roleIds)
    .execute();
  for (const role of roles) {
    const builtin = BUILTIN.get(role.id);
    const needs = builtin ? builtin.permissions : custom.filter((p) => p.role_id === role.id).map((p) => p.permission);
    const escalates =
      (builtin?.admin && !caller.isOrgAdmin) || needs.some((p) => !isOnlySystemPermission(p) && !held.has(p));
    if (escalates) return msg(req.lang, 'escalation', { role: displayName(role, req.lang) });
  }
  return undefined;
}
