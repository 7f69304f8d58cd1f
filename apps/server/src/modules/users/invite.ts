import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ROOT_ORG_ID, SYSTEM_ORG_ID, translator } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { actorOf, recordOperation } from '../../resource/audit.ts';
import { jsType } from '../../resource/coerce.ts';
import { rt } from '../../resource/messages.ts';
import { orgRolesCallerCannotBind } from './bindableOrgRoles.ts';
import { userResource } from './userResource.ts';
import { UserReach } from '../rbac/userGuard.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';

/**
 * `POST /api/v1/users/users/invite/` `{"users": [ids], "org_roles": [ids]}`: existing users join
 * the current org with these org roles (their org roles here are replaced, as the original sets
 * them), answered 201 with the body.
 */

export const INVITE_MAX_USERS = 200;
export const INVITE_MAX_ROLES = 20;

const M = catalogue<typeof usersMessages>('users');
const msg = translator(M);

type Lang = 'en' | 'zh' | 'ja';

/** A list of ids, or the field's error. */
function idList(v: unknown, max: number, lang: Lang): { ids?: string[]; error?: string } {
  if (v === undefined || v === null) return { error: rt(lang, 'required') };
  if (!Array.isArray(v)) return { error: rt(lang, 'not_a_list', { type: jsType(v) }) };
  if (!v.length) return { error: msg(lang, 'empty') };
  if (v.length > max) return { error: msg(lang, 'too_many', { n: max }) };
  if (v.some((x) => typeof x !== 'string' || !x)) return { error: msg(lang, 'id_type') };
  return { ids: [...new Set(v as string[])] };
}

export function registerInviteRoute(app: FastifyInstance): void {
  app.post(`${userResource.url}invite/`, { config: { perm: 'users.invite_user' } }, async (req, reply) => {
    const lang = req.lang;
    // The global org is no org to join; the system-setting org holds no members either.
    if (req.org.id === ROOT_ORG_ID || req.org.id === SYSTEM_ORG_ID)
      throw new ApiError(400, { error: msg(lang, 'not_valid_org') });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const users = idList(body.users, INVITE_MAX_USERS, lang);
    const roles = idList(body.org_roles, INVITE_MAX_ROLES, lang);
    const errors: Record<string, string[]> = {};
    if (users.error) errors.users = [users.error];
    if (roles.error) errors.org_roles = [roles.error];
    if (users.ids) {
      const found = await req.db
        .selectFrom('users_user')
        .select(['id', 'name', 'username'])
        .where('id', 'in', users.ids)
        .where('is_service_account', '=', false)
        .execute();
      const missing = users.ids.find((id) => !found.some((u) => u.id === id));
      // A user the inviter could not have given their system standing is out of its reach
      // (rbac/userGuard.ts); answered like an unknown id, as suggestions never show them.
      const invitable = await (await UserReach.of(req)).invitable(users.ids);
      const outOfReach = users.ids.find((id) => !invitable.has(id));
      if (missing ?? outOfReach) errors.users = [rt(lang, 'invalid_pk', { pk: (missing ?? outOfReach)! })];
      else {
        // Replacing roles takes some away: the caller must be able to give those too (no demoting an admin).
        const replaced = await req.db
          .selectFrom('rbac_rolebinding')
          .select('role_id')
          .distinct()
          .where('user_id', 'in', users.ids)
          .where('scope', '=', 'org')
          .where('org_id', '=', req.org.id)
          .execute();
        const taken = replaced.map((r) => r.role_id).filter((id) => !roles.ids?.includes(id));
        const refused = await orgRolesCallerCannotBind(req, taken);
        if (refused) errors.users = [refused];
      }
    }
    if (roles.ids) {
      const refused = await orgRolesCallerCannotBind(req, roles.ids);
      if (refused) errors.org_roles = [refused];
    }
    if (Object.keys(errors).length) throw new ApiError(400, errors);

    const orgId = req.org.id;
    const roleIds = roles.ids!;
    await req.db.transaction().execute(async (trx) => {
      const targets = await trx
        .selectFrom('users_user')
        .select(['id', 'name', 'username'])
        .where('id', 'in', users.ids!)
        .execute();
      for (const u of targets) {
        await trx
          .deleteFrom('rbac_rolebinding')
          .where('user_id', '=', u.id)
          .where('scope', '=', 'org')
          .where('org_id', '=', orgId)
          .execute();
        await trx
          .insertInto('rbac_rolebinding')
          .values(
            roleIds.map((roleId) => ({
              id: randomUUID(),
              scope: 'org' as const,
              user_id: u.id,
              role_id: roleId,
              org_id: orgId,
              created_by: actorOf(req),
              date_created: new Date().toISOString(),
            })),
          )
          .execute();
        await recordOperation(trx, req, {
          action: 'update',
          def: userResource,
          resourceId: u.id,
          resourceName: `${u.name}(${u.username})`,
          orgId,
          diff: [{ field: 'org_roles', before: '', after: req.org.name }],
        });
      }
    });
    return reply.code(201).send({ users: body.users, org_roles: body.org_roles });
  });
}
