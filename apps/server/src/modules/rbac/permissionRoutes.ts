import type { FastifyInstance, FastifyRequest } from 'fastify';
import { grantablePermissions, permissionId, type Language, type RoleScope } from '@gatehouse/contract';
import { findVisible } from '../../resource/routes.ts';
import type { ResourceDef, Row } from '../../resource/types.ts';
import { toBool } from '../../platform/db/schema.ts';
import { rolePermissionNames, roleResource } from './roleResource.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type rbacMessages from '../../platform/i18n/locales/en/rbac.json';
import { shape, treeNodes } from '../../resource/describe.ts';
const M = catalogue<typeof rbacMessages>('rbac');

/**
 * `permissions/` and the permission trees used to edit a role: root → app →
 * model → permission, each node `{id, name "(checked/total)", title, pId, isParent, checked,
 * chkDisabled, meta: {type}}`; builtin roles are shown but cannot be edited.
 */
const APP_LABELS: Record<string, { en: string; zh: string; ja: string }> = {
  users: M.users,
  rbac: M.rbac,
  orgs: M.orgs,
  assets: M.assets,
  accounts: M.accounts,
  perms: M.perms,
  acls: M.acls,
  terminal: M.terminal,
  audits: M.audits,
  ops: M.ops,
  tickets: M.tickets,
  settings: M.settings,
  notifications: M.notifications,
  authentication: M.authentication,
};

function parts(perm: string): { app: string; action: string; model: string } {
  const [app, codename] = perm.split('.') as [string, string];
  const i = codename.indexOf('_');
  return { app, action: codename.slice(0, i), model: codename.slice(i + 1) };
}

function scopeOf(req: FastifyRequest): RoleScope {
  return (req.query as { scope?: string }).scope === 'system' ? 'system' : 'org';
}

export function permissionTree(scope: RoleScope, checked: Set<string>, lang: Language, disabled: boolean): Row[] {
  const perms = grantablePermissions(scope);
  const nodes: Row[] = [];
  const count = (filter: (p: string) => boolean) => {
    const all = perms.filter(filter);
    return `(${all.filter((p) => checked.has(p)).length}/${all.length})`;
  };
  const node = (id: string, name: string, pId: string, type: string, extra: Row = {}) =>
    nodes.push({
      id,
      name,
      title: id,
      pId,
      isParent: type !== 'perm',
      open: type === 'root',
      checked: false,
      chkDisabled: disabled,
      meta: { type },
      ...extra,
    });
  node(
    '$ROOT$',
    `${{ en: 'All permissions', zh: '所有权限', ja: 'すべての権限' }[lang]}${count(() => true)}`,
    '',
    'root',
  );
  for (const app of [...new Set(perms.map((p) => parts(p).app))]) {
    node(app, `${APP_LABELS[app]?.[lang] ?? app}${count((p) => parts(p).app === app)}`, '$ROOT$', 'app');
    for (const model of [...new Set(perms.filter((p) => parts(p).app === app).map((p) => parts(p).model))]) {
      const inModel = (p: string) => parts(p).app === app && parts(p).model === model;
      node(`${app}.${model}`, `${model}${count(inModel)}`, app, 'model');
      for (const p of perms.filter(inModel)) {
        node(String(permissionId(p)), parts(p).action, `${app}.${model}`, 'perm', {
          title: p,
          checked: checked.has(p),
          iconSkin: parts(p).action,
        });
      }
    }
  }
  return nodes;
}

async function roleChecked(
  req: FastifyRequest,
  def: ResourceDef,
  id: string | undefined,
): Promise<{ checked: Set<string>; builtin: boolean; scope?: RoleScope }> {
  if (!id) return { checked: new Set(), builtin: false };
  const role = await findVisible(def, { req, db: req.db }, id);
  return {
    checked: new Set(await rolePermissionNames({ req, db: req.db }, role)),
    builtin: toBool(role.builtin),
    scope: role.scope,
  };
}

export function registerPermissionRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'rbac.view_permission' } };
  const tree = { config: { ...view.config, describe: treeNodes } };
  const anyRoles = roleResource('any');
  const list = shape('permission', { id: 'integer', name: 'string', codename: 'string', content_type: 'json' });
  app.get('/api/v1/rbac/permissions/', { config: { ...view.config, describe: list } }, async (req) => {
    const { role } = req.query as { role?: string };
    const r = await roleChecked(req, anyRoles, role);
    const perms = role ? [...r.checked] : grantablePermissions(scopeOf(req));
    return perms.sort().map((p) => ({
      id: permissionId(p),
      name: p,
      codename: p.split('.')[1],
      content_type: { id: 0, app_label: parts(p).app, model: parts(p).model },
    }));
  });
  app.get('/api/v1/rbac/permissions/tree/', tree, async (req) => {
    const r = await roleChecked(req, anyRoles, (req.query as { role?: string }).role);
    return permissionTree(r.scope ?? scopeOf(req), r.checked, req.lang, r.builtin);
  });
  for (const scope of ['system', 'org'] as const) {
    const def = roleResource(scope);
    app.get<{ Params: { id: string } }>(`/api/v1/rbac/${scope}-roles/:id/permissions/tree/`, tree, async (req) => {
      const r = await roleChecked(req, def, req.params.id);
      return permissionTree(scope, r.checked, req.lang, r.builtin);
    });
  }
  app.get<{ Params: { id: string } }>(
    '/api/v1/rbac/roles/:id/users/',
    {
      config: {
        perm: 'rbac.view_rolebinding | rbac.view_systemrolebinding | rbac.view_orgrolebinding',
        describe: shape('user', { id: 'string', name: 'string', username: 'string' }),
      },
    },
    async (req) => {
      await findVisible(anyRoles, { req, db: req.db }, req.params.id);
      const rows = await req.db
        .selectFrom('users_user')
        .select(['id', 'name', 'username'])
        .where('id', 'in', req.db.selectFrom('rbac_rolebinding').select('user_id').where('role_id', '=', req.params.id))
        .orderBy('name')
        .execute();
      return { count: rows.length, next: null, previous: null, results: rows };
    },
  );
}
