import { sql } from 'kysely';
import {
  BUILTIN_ROLE_LABELS,
  BUILTIN_ROLES,
  grantablePermissions,
  permissionById,
  permissionId,
  type BuiltinRoleName,
  type RoleScope,
} from '@gatehouse/contract';
import { permissionDenied } from '../../http/errors.ts';
import { f, L } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { toBool } from '../../platform/db/schema.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type rbacMessages from '../../platform/i18n/locales/en/rbac.json';
const MSG = catalogue<typeof rbacMessages>('rbac');

/** Roles: `roles/` (both scopes), `system-roles/`, `org-roles/`. */

export const SCOPE_CHOICES = [
  { value: 'system', label: MSG.system },
  { value: 'org', label: MSG.organization },
];

export function displayName(row: Row, lang: 'en' | 'zh' | 'ja'): string {
  return toBool(row.builtin) ? (BUILTIN_ROLE_LABELS[row.name as BuiltinRoleName]?.[lang] ?? row.name) : row.name;
}

/** The permissions a role holds, as codenames. */
export async function rolePermissionNames(ctx: ResourceCtx, role: Row): Promise<string[]> {
  const builtin = BUILTIN_ROLES.find((r) => r.id === role.id);
  if (builtin) return [...builtin.permissions];
  const rows = await ctx.db
    .selectFrom('rbac_role_permission')
    .select('permission')
    .where('role_id', '=', role.id)
    .execute();
  return rows.map((r) => r.permission);
}

async function savePermissions(ctx: ResourceCtx, roleId: string, ids: number[]): Promise<void> {
  await ctx.db.deleteFrom('rbac_role_permission').where('role_id', '=', roleId).execute();
  const perms = [...new Set(ids.map((id) => permissionById(id)!))];
  if (perms.length)
    await ctx.db
      .insertInto('rbac_role_permission')
      .values(perms.map((permission) => ({ role_id: roleId, permission })))
      .execute();
}

function refuseBuiltin(ctx: ResourceCtx, row: Row | undefined): void {
  if (row && toBool(row.builtin)) throw permissionDenied(ctx.req, MSG.roleResource_builtin[ctx.req.lang]);
}

export function roleResource(scope: RoleScope | 'any'): ResourceDef {
  const model = scope === 'any' ? 'role' : `${scope}role`;
  const url = scope === 'any' ? '/api/v1/rbac/roles/' : `/api/v1/rbac/${scope}-roles/`;
  const scopeOf = (data: Row, before?: Row): RoleScope =>
    scope === 'any' ? ((data.scope ?? before?.scope ?? 'org') as RoleScope) : scope;
  return {
    model,
    app: 'rbac',
    url,
    table: 'rbac_role',
    label: scope === 'system' ? MSG.system_role : scope === 'org' ? MSG.org_role : MSG.role,
    orgScoped: false,
    defaultOrder: ['-builtin', 'name'],
    fieldsMini: ['id', 'name', 'display_name'],
    scope: (q) => (scope === 'any' ? q : q.where(sql.ref('rbac_role.scope'), '=', scope)),
    fields: {
      id: f.id(),
      name: f.string(L.name, { required: true, search: true, filter: true, order: true }),
      display_name: f.computed('string', MSG.display_name, (r, c) => displayName(r, c.req.lang)),
      scope: f.choice(
        MSG.scope_2,
        SCOPE_CHOICES,
        scope === 'any' ? { required: true, filter: true } : { readOnly: true, filter: true },
      ),
      users_amount: f.computed('integer', MSG.users_amount, (r) => Number(r.__users ?? 0)),
      builtin: f.computed('boolean', MSG.builtin, (r) => toBool(r.builtin), {
        filter: true,
        column: 'builtin',
        read: undefined,
        order: true,
      }),
      permissions: f.list(MSG.permissions, {
        writeOnly: true,
        column: false,
        child: { type: 'integer' },
        noExport: true,
      }),
      comment: f.comment(),
      created_by: f.createdBy(),
      updated_by: f.updatedBy(),
      date_created: f.dateCreated(),
      date_updated: f.dateUpdated(),
    },
    async prepare(rows, ctx) {
      if (!rows.length) return;
      const counts = await ctx.db
        .selectFrom('rbac_rolebinding')
        .select(['role_id', (eb) => eb.fn.count<number>('user_id').distinct().as('n')])
        .where(
          'role_id',
          'in',
          rows.map((r) => r.id),
        )
        .groupBy('role_id')
        .execute();
      const by = new Map(counts.map((c) => [c.role_id, Number(c.n)]));
      for (const r of rows) r.__users = by.get(r.id) ?? 0;
    },
    hooks: {
      async validate(data, ctx): Promise<Record<string, string[]> | undefined> {
        refuseBuiltin(ctx, ctx.before);
        const s = scopeOf(data, ctx.before);
        if (data.name !== undefined) {
          let q = ctx.db
            .selectFrom('rbac_role')
            .select('id')
            .where('name', '=', String(data.name))
            .where('scope', '=', s);
          if (ctx.id) q = q.where('id', '!=', ctx.id);
          if (await q.executeTakeFirst()) return { name: [MSG.roleResource_unique[ctx.req.lang]] };
        }
        if (data.permissions !== undefined) {
          const ids = JSON.parse(String(data.permissions)) as unknown[];
          const allowed = new Set(grantablePermissions(s).map(permissionId));
          const bad = ids.find((id) => typeof id !== 'number' || !allowed.has(id));
          if (bad !== undefined)
            return { permissions: [tr(ctx.req.lang, MSG.roleResource_badPerm, { id: String(bad) })] };
        }
        return undefined;
      },
      beforeInsert(values, data) {
        values.scope = scopeOf(data);
        values.builtin = false;
      },
      async afterCreate({ ctx, id, data }) {
        const cloneFrom = (ctx.req.query as { clone_from?: string }).clone_from;
        if (data.permissions !== undefined)
          await savePermissions(ctx, id, JSON.parse(String(data.permissions)) as number[]);
        else if (cloneFrom) {
          const source = await ctx.db
            .selectFrom('rbac_role')
            .selectAll()
            .where('id', '=', cloneFrom)
            .executeTakeFirst();
          if (source)
            await savePermissions(
              ctx,
              id,
              (await rolePermissionNames(ctx, source))
                .filter((p) => grantablePermissions(scopeOf(data)).includes(p))
                .map(permissionId),
            );
        }
      },
      async afterUpdate({ ctx, id, data }) {
        if (data.permissions !== undefined)
          await savePermissions(ctx, id, JSON.parse(String(data.permissions)) as number[]);
      },
      async beforeDelete(row, ctx) {
        refuseBuiltin(ctx, row);
        const bound = await ctx.db
          .selectFrom('rbac_rolebinding')
          .select('id')
          .where('role_id', '=', row.id)
          .executeTakeFirst();
        if (bound) throw permissionDenied(ctx.req, MSG.roleResource_bound[ctx.req.lang]);
      },
    },
  };
}
