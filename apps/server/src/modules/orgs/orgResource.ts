import { sql } from 'kysely';
import { DEFAULT_ORG_ID, INTERNAL_ORG_IDS, ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError, permissionDenied } from '../../http/errors.ts';
import { f, L } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { orgLifecycle } from './orgLifecycle.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type orgsMessages from '../../platform/i18n/locales/en/orgs.json';

/** Organisations (`/api/v1/orgs/orgs/`, the JumpServer API): system-level, with resource counts. */

const MSG = catalogue<typeof orgsMessages>('orgs');

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
  ['groups_amount', 'users_usergroup', MSG.user_groups],
  ['assets_amount', 'assets_asset', MSG.assets],
  ['nodes_amount', 'assets_node', MSG.nodes, sql.raw(`AND parent_key <> ''`)],
  ['domains_amount', 'assets_domain', MSG.domains],
  ['gateways_amount', 'assets_gateway', MSG.gateways],
  ['asset_perms_amount', 'perms_assetpermission', MSG.asset_permissions],
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
  label: MSG.organization,
  orgScoped: false,
  defaultOrder: ['name'],
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
    resource_statistics: f.computed('nested object', MSG.resource_statistics, (r) => r.__stats, { noExport: true }),
    is_default: f.computed('boolean', MSG.default, (r) => r.id === DEFAULT_ORG_ID),
    is_root: f.computed('boolean', MSG.root, (r) => r.id === ROOT_ORG_ID),
    internal: f.computed('boolean', MSG.builtin, (r) => INTERNAL_ORG_IDS.includes(r.id)),
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
      const held = [['users_amount', MSG.users] as const, ...COUNTED.map(([k, , l]) => [k, l] as const)]
        .filter(([k]) => Number(stats[k]) > 0)
        .map(([, l]) => l[lang]);
      if (held.length) throw permissionDenied(ctx.req, tr(lang, MSG.notEmpty, { what: held.join(', ') }));
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
