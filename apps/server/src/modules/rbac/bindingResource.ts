import { sql } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { f } from '../../resource/fields.ts';
import type { AnyQuery, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { displayName, SCOPE_CHOICES } from './roleResource.ts';
import { bindingPerm, refuseGrant } from './roleGrants.ts';
import { guardUserTarget } from './userGuard.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type rbacMessages from '../../platform/i18n/locales/en/rbac.json';

/** Role bindings: `role-bindings/`, `system-role-bindings/`, `org-role-bindings/`. */

const MSG = catalogue<typeof rbacMessages>('rbac');

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
    label: MSG.role_binding,
    orgScoped: scope === 'org',
    defaultOrder: ['date_created'],
    nameOf: (r) => `${r.user_id} → ${r.role_id}`,
    scope: (q) => (scope === 'any' ? q : q.where(sql.ref('rbac_rolebinding.scope'), '=', scope)),
    fields: {
      id: f.id(),
      user: f.fk(
        MSG.user,
        {
          table: 'users_user',
          output: (u) => ({ id: u.id, name: u.name, username: u.username }),
        },
        { required: true, filter: true },
      ),
      role: f.fk(
        MSG.role,
        {
          table: 'rbac_role',
          output: (r, c) => ({ id: r.id, name: r.name, display_name: displayName(r, c.req.lang) }),
          ...(scope === 'any' ? {} : { choosable: (q: AnyQuery) => q.where(sql.ref('rbac_role.scope'), '=', scope) }),
        },
        { required: true, filter: true },
      ),
      scope: f.choice(MSG.scope_2, SCOPE_CHOICES, { readOnly: true, filter: true }),
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
          return { role: [tr(ctx.req.lang, MSG.scope, { scope: wantedScope })] };
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
