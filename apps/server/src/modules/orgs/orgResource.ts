import { sql } from 'kysely';
import { DEFAULT_ORG_ID, INTERNAL_ORG_IDS, ROOT_ORG_ID, text } from '@gatehouse/contract';
import { ApiError, permissionDenied } from '../../http/errors.ts';
import { f, L } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { orgLifecycle } from './orgLifecycle.ts';

/** Organisations (`/api/v1/orgs/orgs/`, the JumpServer API): system-level, with resource counts. */

const MSG = {
  virtual: text('Can not delete virtual org', '不能删除虚拟组织', '仮想組織は削除できません'),
  current: text(
    'You cannot delete the organization you are working in: switch to another first',
    '不能删除当前所在的组织：请先切换到其他组织',
    '作業中の組織は削除できません。先に別の組織に切り替えてください',
  ),
  notEmpty: text(
    'The organization still holds {what}: remove them first',
    '该组织仍包含{what}：请先移除',
    'この組織にはまだ{what}があります。先に削除してください',
  ),
  noBulk: text('Organizations are deleted one at a time', '组织只能逐个删除', '組織は 1 つずつ削除してください'),
};

/**
 * Tables counted per org; tables that do not exist yet (later areas) count as zero. An org's root
 * node (parent_key '') is created with its tree and never keeps an org from being deleted.
 */
const COUNTED: [
  key: string,
  table: string,
  label: { en: string; zh: string; ja: string },
  where?: ReturnType<typeof sql.raw>,
][] = [
  ['groups_amount', 'users_usergroup', text('user groups', '用户组', 'ユーザーグループ')],
  ['assets_amount', 'assets_asset', text('assets', '资产', '資産')],
  ['nodes_amount', 'assets_node', text('nodes', '节点', 'ノード'), sql.raw(`AND parent_key <> ''`)],
  ['domains_amount', 'assets_domain', text('domains', '网域', 'ドメイン')],
  ['gateways_amount', 'assets_gateway', text('gateways', '网关', 'ゲートウェイ')],
  ['asset_perms_amount', 'perms_assetpermission', text('asset permissions', '资产授权', '資産権限')],
];

async function existingTables(ctx: ResourceCtx): Promise<Set<string>> {
  return new Set((await ctx.db.introspection.getTables()).map((t) => t.name));
}

async function statistics(ctx: ResourceCtx, orgIds: string[]): Promise<Map<string, Row>> {
  const tables = await existingTables(ctx);
  const out = new Map<string, Row>(orgIds.map((id) => [id, { users_amount: 0 }]));
  const users = await ctx.db
    .selectFrom('rbac_rolebinding')
    .select(['org_id', (eb) => eb.fn.count<number>('user_id').distinct().as('n')])
    .where('scope', '=', 'org')
    .where('org_id', 'in', orgIds)
    .groupBy('org_id')
    .execute();
  for (const u of users) out.get(String(u.org_id))!.users_amount = Number(u.n);
  for (const [key, table, , where] of COUNTED) {
    for (const id of orgIds) out.get(id)![key] = 0;
    if (!tables.has(table)) continue;
    const rows = await sql<{
      org_id: string;
      n: number;
    }>`SELECT org_id, count(*) AS n FROM ${sql.table(table)} WHERE org_id IN (${sql.join(orgIds)}) ${where ?? sql.raw('')} GROUP BY org_id`.execute(
      ctx.db,
    );
    for (const r of rows.rows) out.get(r.org_id)![key] = Number(r.n);
  }
  return out;
}

export const orgResource: ResourceDef = {
  model: 'organization',
  app: 'orgs',
  url: '/api/v1/orgs/orgs/',
  table: 'orgs_organization',
  label: text('Organization', '组织', '組織'),
  orgScoped: false,
  defaultOrder: ['name'],
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
    resource_statistics: f.computed(
      'nested object',
      text('Resource statistics', '资源统计', 'リソース統計'),
      (r) => r.__stats,
      { noExport: true },
    ),
    is_default: f.computed('boolean', text('Default', '默认', 'デフォルト'), (r) => r.id === DEFAULT_ORG_ID),
    is_root: f.computed('boolean', text('Root', '全局', 'ルート'), (r) => r.id === ROOT_ORG_ID),
    internal: f.computed('boolean', text('Builtin', '内置', '組み込み'), (r) => INTERNAL_ORG_IDS.includes(r.id)),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
  },
  async prepare(rows, ctx) {
    if (!rows.length) return;
    const stats = await statistics(
      ctx,
      rows.map((r) => String(r.id)),
    );
    for (const r of rows) r.__stats = stats.get(String(r.id));
  },
  hooks: {
    /** An organisation has its root node (named after it) from birth, so its node list is never empty. */
    async afterCreate({ ctx, id }) {
      for (const l of orgLifecycle(ctx)) await l.created?.(ctx, id);
    },
    async afterUpdate({ ctx, id, data, before }) {
      if (typeof data.name !== 'string' || data.name === before?.name) return;
      for (const l of orgLifecycle(ctx)) await l.renamed?.(ctx, id, data.name);
    },
    async beforeDelete(row, ctx) {
      const lang = ctx.req.lang;
      if (INTERNAL_ORG_IDS.includes(row.id))
        throw new ApiError(400, { detail: MSG.virtual[lang], code: 'internal_org' });
      if (row.id === ctx.req.org.id) throw permissionDenied(ctx.req, MSG.current[lang]);
      const stats = (await statistics(ctx, [row.id])).get(row.id)!;
      const held = [
        ['users_amount', text('users', '用户', 'ユーザー')] as const,
        ...COUNTED.map(([k, , l]) => [k, l] as const),
      ]
        .filter(([k]) => Number(stats[k]) > 0)
        .map(([, l]) => l[lang]);
      if (held.length) throw permissionDenied(ctx.req, MSG.notEmpty[lang].replace('{what}', held.join(', ')));
    },
    async afterDelete(rows, ctx) {
      const ids = rows.map((r) => String(r.id));
      for (const l of orgLifecycle(ctx)) await l.deleted?.(ctx, ids);
    },
    beforeBulkDelete(_ids, ctx) {
      throw new ApiError(400, { detail: MSG.noBulk[ctx.req.lang], code: 'bulk_delete_not_allowed' });
    },
  },
};
