import { announceDeactivated } from './userEvents.ts';
import { sql } from 'kysely';
import { BUILTIN_ROLE_IDS, ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { effectivePerms } from '../../http/rbac.ts';
import { endCredentials } from '../../http/bearerTokens.ts';
import { mayBind, refuseGrant } from '../rbac/roleGrants.ts';
import { guardUserTarget } from '../rbac/userGuard.ts';
import { hashPassword } from '../../platform/crypto/password.ts';
import { setUserPassword } from './setPassword.ts';
import { toBool } from '../../platform/db/schema.ts';
import { defaultDateExpired } from '../bootstrap/seed.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { notifyUser } from '../notifications/systemMessages.ts';
import { notifyUserCreated } from '../notifications/userCreated.ts';
import { afterCommit } from '../../resource/write.ts';
import { checkPasswordRules } from './passwordRules.ts';
import { USER_FIELDS } from './userFields.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';

/** Users (`/api/v1/users/users/`, the JumpServer API): members of the current org (all in ROOT). */

const MSG = catalogue<typeof usersMessages>('users');

export const userResource: ResourceDef = {
  model: 'user',
  app: 'users',
  url: '/api/v1/users/users/',
  table: 'users_user',
  label: MSG.user,
  orgScoped: false,
  // Users' SSH public keys are not stored yet: a create or update that gives one is refused, not dropped.
  fields: USER_FIELDS,
  fieldsMini: ['id', 'name', 'username'],
  fieldsSmall: ['id', 'name', 'username', 'email', 'is_active', 'source'],
  defaultOrder: ['name'],
  dateRangeField: 'date_joined',
  extraFilters: {
    group_id: (q, value, ctx) =>
      q.where(
        sql.ref('users_user.id'),
        'in',
        ctx.db.selectFrom('users_user_groups').select('user_id').where('usergroup_id', '=', value),
      ),
    exclude_group_id: (q, value, ctx) =>
      q.where(
        sql.ref('users_user.id'),
        'not in',
        ctx.db.selectFrom('users_user_groups').select('user_id').where('usergroup_id', '=', value),
      ),
  },
  nameOf: (r) => `${r.name}(${r.username})`,

  scope(q, ctx) {
    q = q.where('users_user.is_service_account' as never, '=', false as never);
    if (ctx.req.org.id === ROOT_ORG_ID) return q;
    // Per row (EXISTS through the binding index), not `id IN (members)`: SQLite would list every
    // member first, which costs a search narrowed to a few rows by its index ~100x (100k members).
    return q.where(({ exists }) =>
      exists(
        orgMemberIds(ctx.db, ctx.req.org.id)
          .clearSelect()
          .select(sql.lit(1).as('one'))
          .where('rbac_rolebinding.user_id', '=', sql.ref('users_user.id') as never),
      ),
    );
  },

  async prepare(rows: Row[], ctx) {
    if (!rows.length) return;
    const admins = await ctx.db
      .selectFrom('rbac_rolebinding')
      .select(['user_id', 'role_id', 'org_id'])
      .where(
        'user_id',
        'in',
        rows.map((r) => r.id),
      )
      .where('role_id', 'in', [BUILTIN_ROLE_IDS.SystemAdmin, BUILTIN_ROLE_IDS.OrgAdmin])
      .execute();
    // Both block marks of every row in one cache round trip: with Redis, two reads per row would
    // be 200k round trips for an export of 100k users.
    const blocks = await ctx.req.server.deps.cache.getMany(
      rows.flatMap((r) => [`_LOGIN_BLOCK_${r.username}`, `_MFA_BLOCK_${r.username}`]),
    );
    rows.forEach((r, i) => {
      const mine = admins.filter((a) => a.user_id === r.id);
      r.__superuser = mine.some((a) => a.role_id === BUILTIN_ROLE_IDS.SystemAdmin);
      r.__org_admin =
        r.__superuser || mine.some((a) => a.role_id === BUILTIN_ROLE_IDS.OrgAdmin && a.org_id === ctx.req.org.id);
      r.__blocked = blocks[2 * i] !== undefined || blocks[2 * i + 1] !== undefined;
    });
  },

  hooks: {
    async validate(data, ctx) {
      const lang = ctx.req.lang;
      const selfMsg = (field: string) => ({
        [field]: [tr(lang, MSG.self, { field: USER_FIELDS[field]!.label[lang] })],
      });
      const roleError = await checkRoleFields(data, ctx);
      if (roleError) return roleError;
      if (ctx.id && ctx.before && ctx.req.user?.id === ctx.id) {
        if ('is_active' in data && Boolean(data.is_active) !== toBool(ctx.before.is_active))
          return selfMsg('is_active');
        for (const field of ['system_roles', 'org_roles'] as const) {
          if (field in data && (await rolesChanged(ctx, ctx.id, field, data[field] as string[]))) return selfMsg(field);
        }
      }
      if (ctx.id) await guardUserTarget(ctx.req, ctx.id, 'users.change_user');
      const creating = !ctx.id;
      const password = data.password as string | undefined;
      if (creating && data.password_strategy === 'custom' && !password)
        return { password: [MSG.passwordRequired[lang]] };
      if (password) {
        const eff = ctx.id ? await effectivePerms(ctx.db, ctx.id, ctx.req.org.id) : { isOrgAdmin: false };
        const bad = await checkPasswordRules(ctx.req.server.deps.settings, password, lang, eff.isOrgAdmin);
        if (bad) return { password: [bad] };
      }
      return undefined;
    },
    async beforeInsert(values, data) {
      const now = new Date().toISOString();
      values.date_joined = now;
      values.date_expired ??= defaultDateExpired();
      values.password =
        data.password_strategy === 'custom' && data.password ? await hashPassword(String(data.password)) : '';
      values.date_password_last_updated = now;
      values.is_first_login = true;
    },
    async afterCreate({ ctx, id, data }) {
      const { database, bus, settings } = ctx.req.server.deps;
      const deps = { db: database.db, bus, settings, log: ctx.req.log };
      const user = { id, username: String(data.username ?? ''), name: String(data.name ?? '') };
      afterCommit(ctx, () => notifyUserCreated(deps, user));
      const now = new Date().toISOString();
      const by = ctx.req.user?.username ?? 'System';
      const sys = data.system_roles as string[] | undefined;
      if (!sys?.length) {
        await ctx.db
          .insertInto('rbac_rolebinding')
          .values({
            id: crypto.randomUUID(),
            scope: 'system',
            user_id: id,
            role_id: BUILTIN_ROLE_IDS.User,
            org_id: null,
            created_by: by,
            date_created: now,
          })
          .execute();
      }
      const org = data.org_roles as string[] | undefined;
      if (!org?.length && ctx.req.org.id !== ROOT_ORG_ID) {
        await ctx.db
          .insertInto('rbac_rolebinding')
          .values({
            id: crypto.randomUUID(),
            scope: 'org',
            user_id: id,
            role_id: BUILTIN_ROLE_IDS.OrgUser,
            org_id: ctx.req.org.id,
            created_by: by,
            date_created: now,
          })
          .execute();
      }
    },
    async afterUpdate({ ctx, id, data, before }) {
      // A new password or a deactivation ends the user's tokens and sessions (a reactivation
      // does not bring them back).
      const deactivated = 'is_active' in data && !data.is_active && toBool(before?.is_active);
      const expired =
        'date_expired' in data && !!data.date_expired && String(data.date_expired) < new Date().toISOString();
      if (deactivated || expired) await announceDeactivated(ctx.req.server.deps.bus, id);
      if (data.password || deactivated)
        await endCredentials(
          ctx.req.server.deps,
          ctx.db,
          id,
          id === ctx.req.user?.id ? ctx.req.session?.id : undefined,
        );
      if (data.password) {
        await setUserPassword(ctx.db, ctx.req, id, { password: String(data.password) });
        // The owner hears of it through a site message, as after changing it themselves. Not
        // awaited: this runs inside the write's transaction, and the message is written after it.
        const owner = await ctx.db
          .selectFrom('users_user')
          .select(['id', 'username'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (owner) void notifyUser(ctx.req, owner, 'password_changed');
      }
    },
    async beforeDelete(row, ctx) {
      if (row.id === ctx.req.user?.id)
        throw new ApiError(400, { detail: MSG.deleteSelf[ctx.req.lang], code: 'delete_self' });
      await guardUserTarget(ctx.req, row.id, 'users.delete_user');
    },
    async beforeBulkDelete(ids, ctx) {
      for (const id of ids) await guardUserTarget(ctx.req, id, 'users.delete_user');
      const total = await ctx.db
        .selectFrom('users_user')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('is_service_account', '=', false)
        .executeTakeFirstOrThrow();
      if (ids.length >= Number(total.n))
        throw new ApiError(400, { detail: MSG.deleteAll[ctx.req.lang], code: 'unable_to_delete_all_users' });
    },
  },
};

/**
 * The role fields of a write (create, update, bulk, import): dropped when the caller may not bind
 * roles of their scope, refused when they add a role the caller could not
 * grant through the roles pages (modules/rbac/roleGrants.ts).
 */
async function checkRoleFields(
  data: Row,
  ctx: ResourceCtx & { id?: string },
): Promise<Record<string, string[]> | undefined> {
  for (const [field, scope] of [
    ['system_roles', 'system'],
    ['org_roles', 'org'],
  ] as const) {
    if (!(field in data)) continue;
    if (!(await mayBind(ctx.req, scope))) {
      delete data[field];
      continue;
    }
    const wanted = (data[field] as string[] | undefined) ?? [];
    const held = ctx.id ? await currentRoles(ctx, ctx.id, field) : [];
    const refused = await refuseGrant(
      ctx.req,
      wanted.filter((r) => !held.includes(r)),
      scope,
    );
    if (refused) return { [field]: [refused] };
  }
  return undefined;
}

async function currentRoles(ctx: ResourceCtx, userId: string, field: 'system_roles' | 'org_roles'): Promise<string[]> {
  let q = ctx.db.selectFrom('rbac_rolebinding').select('role_id').where('user_id', '=', userId);
  q =
    field === 'system_roles'
      ? q.where('scope', '=', 'system')
      : q.where('scope', '=', 'org').where('org_id', '=', ctx.req.org.id);
  return (await q.execute()).map((r) => r.role_id);
}

async function rolesChanged(
  ctx: ResourceCtx,
  userId: string,
  field: 'system_roles' | 'org_roles',
  wanted: string[],
): Promise<boolean> {
  let q = ctx.db.selectFrom('rbac_rolebinding').select('role_id').where('user_id', '=', userId);
  q =
    field === 'system_roles'
      ? q.where('scope', '=', 'system')
      : q.where('scope', '=', 'org').where('org_id', '=', ctx.req.org.id);
  const current = (await q.execute()).map((r) => r.role_id).sort();
  return JSON.stringify(current) !== JSON.stringify([...wanted].sort());
}
