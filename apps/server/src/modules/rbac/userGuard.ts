import type { FastifyRequest } from 'fastify';
import { BUILTIN_ROLE_IDS, ROOT_ORG_ID } from '@gatehouse/contract';
import { permissionDenied } from '../../http/errors.ts';
import { requestPerms } from '../../http/permissions.ts';
import { effectivePerms, userBindings } from '../../http/rbac.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type rbacMessages from '../../platform/i18n/locales/en/rbac.json';

/**
 * The one rule for every action on a user (update, bulk update, password set, MFA reset, unblock,
 * remove from org, delete, role bindings), called by each of those routes with the permission the
 * route requires:
 * - only a superuser acts on a superuser;
 * - a caller holding `perm` at system level (through a system role) acts on anyone else;
 * - otherwise the caller acts only on users whose every membership is in orgs where the caller
 *   holds `perm` (an org admin does not reset the password of a member of an org they do not
 *   administer: that would be a sign-in into that org). A user in no org is the system's.
 */

const MSG = catalogue<typeof rbacMessages>('rbac');

export async function guardUserTarget(req: FastifyRequest, targetId: string, perm: string): Promise<void> {
  const caller = await requestPerms(req);
  if (caller.isSuperuser || !req.user) return;
  const target = await userBindings(req.db, targetId);
  if (target.some((b) => b.scope === 'system' && b.role_id === BUILTIN_ROLE_IDS.SystemAdmin))
    throw permissionDenied(req, MSG.superuser[req.lang]);
  const callerBindings = await userBindings(req.db, req.user.id);
  const system = await effectivePerms(req.db, req.user.id, ROOT_ORG_ID, callerBindings);
  if (system.perms.includes(perm)) return;
  const orgs = [...new Set(target.filter((b) => b.scope === 'org' && b.org_id).map((b) => b.org_id!))];
  if (!orgs.length) throw permissionDenied(req, MSG.otherOrgs[req.lang]);
  for (const org of orgs) {
    const there = await effectivePerms(req.db, req.user.id, org, callerBindings);
    if (!there.isOrgAdmin && !there.perms.includes(perm)) throw permissionDenied(req, MSG.otherOrgs[req.lang]);
  }
}
