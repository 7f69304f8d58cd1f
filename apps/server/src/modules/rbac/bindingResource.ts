import { sql } from 'kysely';
import { text } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { f } from '../../resource/fields.ts';
import type { AnyQuery, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { displayName, SCOPE_CHOICES } from './roleResource.ts';
import { bindingPerm, refuseGrant } from './roleGrants.ts';
import { guardUserTarget } from './userGuard.ts';

/** Role bindings: `role-bindings/`, `system-role-bindings/`, `org-role-bindings/`. */

const MSG = {
  bound: text('Has bound this role', '已经绑定了该角色', 'このロールは既に割り当てられています'),
  lastSystem: text(
    'A user needs at least one system role',
    '用户至少需要一个系统角色',
    'ユーザーには少なくとも 1 つのシステムロールが必要です',
  ),
  lastOrg: text(
    'User last role in org, can not be delete, you can remove user from org instead',
    '用户在组织中的最后一个角色，不能删除，可以将用户从组织中移除',
    'ユーザーの組織内の最後のロールは削除できません。代わりに組織からユーザーを削除してください',
  ),
  scope: text('The role must be a {scope} role', '角色必须是{scope}角色', 'ロールは{scope}ロールである必要があります'),
};

const joinFilter =
  (column: string, table: 'users_user' | 'rbac_role', key: string) => (q: AnyQuery, value: string, ctx: ResourceCtx) =>
    q.where(
      sql.ref(`rbac_rolebinding.${key}`),
      'in',
      ctx.db
        .selectFrom(table)
        .select('id')
        .where(column as never, '=', value as never),
    );

export function bindingResource(scope: 'system' | 'org' | 'any'): ResourceDef {
  const model = scope === 'any' ? 'rolebinding' : `${scope}rolebinding`;
  const url = scope === 'any' ? '/api/v1/rbac/role-bindings/' : `/api/v1/rbac/${scope}-role-bindings/`;
  return {
    model,
    app: 'rbac',
    url,
    table: 'rbac_rolebinding',
    label: text('Role binding', '角色绑定', 'ロールの割り当て'),
    orgScoped: scope === 'org',
    defaultOrder: ['date_created'],
    nameOf: (r) => `${r.user_id} → ${r.role_id}`,
    scope: (q) => (scope === 'any' ? q : q.where(sql.ref('rbac_rolebinding.scope'), '=', scope)),
    fields: {
      id: f.id(),
      user: f.fk(
        text('User', '用户', 'ユーザー'),
        {
          table: 'users_user',
          output: (u) => ({ id: u.id, name: u.name, username: u.username }),
        },
        { required: true, filter: true },
      ),
      role: f.fk(
        text('Role', '角色', 'ロール'),
        {
          table: 'rbac_role',
          output: (r, c) => ({ id: r.id, name: r.name, display_name: displayName(r, c.req.lang) }),
          ...(scope === 'any' ? {} : { choosable: (q: AnyQuery) => q.where(sql.ref('rbac_role.scope'), '=', scope) }),
        },
        { required: true, filter: true },
      ),
      scope: f.choice(text('Scope', '范围', '範囲'), SCOPE_CHOICES, { readOnly: true, filter: true }),
      created_by: f.createdBy(),
      date_created: f.dateCreated(),
    },
    extraFilters: {
      user__username: joinFilter('username', 'users_user', 'user_id'),
      user__name: joinFilter('name', 'users_user', 'user_id'),
      role__name: joinFilter('name', 'rbac_role', 'role_id'),
    },
    hooks: {
      async validate(data, ctx): Promise<Record<string, string[]> | undefined> {
        // An update names what it changes only: the binding it leads to is checked as a whole.
        const userId = String(data.user ?? ctx.before?.user_id);
        const role = await ctx.db
          .selectFrom('rbac_role')
          .select(['id', 'scope'])
          .where('id', '=', String(data.role ?? ctx.before?.role_id))
          .executeTakeFirst();
        if (!role) return undefined;
        const wantedScope = scope !== 'any' ? scope : ctx.before ? ctx.before.scope : undefined;
        if (wantedScope && role.scope !== wantedScope)
          return { role: [MSG.scope[ctx.req.lang].replace('{scope}', wantedScope)] };
        // The same rules as the user form's role fields (roleGrants.ts, userGuard.ts); moving a
        // binding away from a user is an action on that user too.
        await guardUserTarget(ctx.req, userId, bindingPerm(role.scope));
        if (ctx.before && ctx.before.user_id !== userId)
          await guardUserTarget(ctx.req, String(ctx.before.user_id), bindingPerm(role.scope));
        const refused = await refuseGrant(ctx.req, [role.id], role.scope);
        if (refused) return { role: [refused] };
        let q = ctx.db
          .selectFrom('rbac_rolebinding')
          .select('id')
          .where('user_id', '=', userId)
          .where('role_id', '=', role.id);
        q = role.scope === 'org' ? q.where('org_id', '=', ctx.req.org.id) : q.where('org_id', 'is', null);
        if (ctx.id) q = q.where('id', '!=', ctx.id);
        if (await q.executeTakeFirst()) return { role: [MSG.bound[ctx.req.lang]] };
        return undefined;
      },
      async beforeInsert(values, _data, ctx) {
        const role = await ctx.db
          .selectFrom('rbac_role')
          .select('scope')
          .where('id', '=', String(values.role_id))
          .executeTakeFirstOrThrow();
        values.scope = role.scope;
        values.org_id = role.scope === 'org' ? ctx.req.org.id : null;
      },
      async beforeDelete(row, ctx) {
        await guardUserTarget(ctx.req, row.user_id, `rbac.delete_${row.scope}rolebinding`);
        let others = ctx.db
          .selectFrom('rbac_rolebinding')
          .select('id')
          .where('user_id', '=', row.user_id)
          .where('scope', '=', row.scope)
          .where('id', '!=', row.id);
        if (row.scope === 'org') others = others.where('org_id', '=', row.org_id);
        if (await others.executeTakeFirst()) return;
        if (row.scope === 'system')
          throw new ApiError(400, { detail: MSG.lastSystem[ctx.req.lang], code: 'system_role_delete_error' });
        throw new ApiError(400, { error: MSG.lastOrg[ctx.req.lang] });
      },
    },
  };
}
