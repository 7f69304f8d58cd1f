import type { FastifyRequest } from 'fastify';
import { BUILTIN_ROLE_IDS, ROOT_ORG_ID } from '@gatehouse/contract';
import { permissionDenied } from '../../http/errors.ts';
import { requestPerms } from '../../http/permissions.ts';
import { effectivePerms, userBindings, type BindingRow, type EffectivePerms } from '../../http/rbac.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type rbacMessages from '../../platform/i18n/locales/en/rbac.json';
import { bindingPerm, permissionsOf } from './roleGrants.ts';

/**
 * The one rule for every action on a user (update, bulk update, password set, MFA reset, unblock,
 * remove from org, delete, role bindings, sign-out of their sessions; invitation and suggestions
 * filter by it): **an actor acts on a user only when it could have granted every role that user
 * holds**, at system level and in every organisation of theirs, and holds the route's permission:
 * - only a superuser acts on a superuser;
 * - every role beyond the plain ones (system `User`, org `OrgUser`, which creating a user gives)
 *   must be one the actor could bind through the roles pages (roleGrants.ts): a system role with
 *   the actor's system-level permissions, an org role with its permissions in that org. An org
 *   admin therefore never reaches a SystemAuditor, a SystemComponent or a custom system role;
 * - the route's permission held at system level reaches users in any org, otherwise the actor must
 *   administer (or hold the permission in) every org the user belongs to. A user in no org is the
 *   system's.
 */

const MSG = catalogue<typeof rbacMessages>('rbac');
const PLAIN_ROLES = new Set<string>([BUILTIN_ROLE_IDS.User, BUILTIN_ROLE_IDS.OrgUser]);

export class UserReach {
  private readonly orgs = new Map<string, Promise<EffectivePerms>>();
  private readonly roles = new Map<string, Promise<{ name: string; perms: string[] } | undefined>>();

  private constructor(
    private readonly req: FastifyRequest,
    readonly unlimited: boolean,
    private readonly callerBindings: BindingRow[],
  ) {}

  static async of(req: FastifyRequest): Promise<UserReach> {
    const caller = await requestPerms(req);
    const unlimited = caller.isSuperuser || !req.user;
    return new UserReach(req, unlimited, unlimited ? [] : await userBindings(req.db, req.user!.id));
  }

  private permsIn(org: string): Promise<EffectivePerms> {
    let p = this.orgs.get(org);
    if (!p) this.orgs.set(org, (p = effectivePerms(this.req.db, this.req.user!.id, org, this.callerBindings)));
    return p;
  }

  private role(id: string): Promise<{ name: string; perms: string[] } | undefined> {
    let p = this.roles.get(id);
    if (!p) this.roles.set(id, (p = permissionsOf(this.req.db, id, this.req.lang)));
    return p;
  }

  /** Why the actor may not act on a user holding `target`'s bindings (with `perm`, when given), or undefined. */
  async refusal(target: readonly BindingRow[], perm?: string, self = false): Promise<string | undefined> {
    if (this.unlimited) return undefined;
    const lang = this.req.lang;
    if (target.some((b) => b.scope === 'system' && b.role_id === BUILTIN_ROLE_IDS.SystemAdmin))
      return MSG.superuser[lang];
    for (const b of target) {
      // One's own roles were granted by someone else; what one may change of oneself is the
      // resource's own rule (users/userResource.ts keeps roles and activity out of reach).
      if (self || PLAIN_ROLES.has(b.role_id)) continue;
      const where = b.scope === 'system' ? ROOT_ORG_ID : b.org_id;
      if (!where) continue;
      const held = await this.permsIn(where);
      const role = await this.role(b.role_id);
      const heldSet = new Set(held.perms);
      if (!role || !heldSet.has(bindingPerm(b.scope)) || role.perms.some((p) => !heldSet.has(p)))
        return tr(lang, MSG.outranks, { role: role?.name ?? b.role_id });
    }
    if (perm === undefined) return undefined;
    if ((await this.permsIn(ROOT_ORG_ID)).perms.includes(perm)) return undefined;
    const orgs = [...new Set(target.filter((b) => b.scope === 'org' && b.org_id).map((b) => b.org_id!))];
    if (!orgs.length) return MSG.otherOrgs[lang];
    for (const org of orgs) {
      const there = await this.permsIn(org);
      if (!there.isOrgAdmin && !there.perms.includes(perm)) return MSG.otherOrgs[lang];
    }
    return undefined;
  }

  /** The ids among `userIds` whose system standing the actor could have granted (invitations, suggestions). */
  async invitable(userIds: readonly string[]): Promise<Set<string>> {
    if (this.unlimited || !userIds.length) return new Set(userIds);
    const rows = await this.req.db
      .selectFrom('rbac_rolebinding')
      .select(['user_id', 'role_id', 'scope', 'org_id'])
      .where('user_id', 'in', [...userIds])
      .where('scope', '=', 'system')
      .execute();
    const out = new Set<string>();
    for (const id of userIds) if (!(await this.refusal(rows.filter((r) => r.user_id === id)))) out.add(id);
    return out;
  }
}

export async function guardUserTarget(req: FastifyRequest, targetId: string, perm: string): Promise<void> {
  const reach = await UserReach.of(req);
  if (reach.unlimited) return;
  const why = await reach.refusal(await userBindings(req.db, targetId), perm, targetId === req.user?.id);
  if (why) throw permissionDenied(req, why);
}
