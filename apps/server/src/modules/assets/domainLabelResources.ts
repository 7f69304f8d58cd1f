import { sql } from 'kysely';
import { f, L } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type assetsMessages from '../../platform/i18n/locales/en/assets.json';
const M = catalogue<typeof assetsMessages>('assets');

/** Domains and labels. */

const gatewayIds = (db: Parameters<NonNullable<ResourceDef['prepare']>>[1]['db']) =>
  db.selectFrom('assets_platform').select('id').where('name', '=', 'Gateway');

export const domainResource: ResourceDef = {
  model: 'domain',
  app: 'assets',
  url: '/api/v1/assets/domains/',
  table: 'assets_domain',
  label: M.domain,
  orgScoped: true,
  defaultOrder: ['name'],
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
    comment: f.comment(),
    assets: f.list(M.asset, { column: false, child: { type: 'nested object' } }),
    gateways: f.computed('list', M.gateway, (r) => r.__gateways ?? []),
    date_created: f.dateCreated(),
  },
  async prepare(rows, ctx) {
    if (!rows.length) return;
    const assets = await ctx.db
      .selectFrom('assets_asset')
      .select(['id', 'name', 'domain_id', 'platform_id'])
      .where(
        'domain_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('name')
      .execute();
    const gw = new Set((await gatewayIds(ctx.db).execute()).map((g) => g.id));
    for (const r of rows) {
      const mine = assets.filter((a) => a.domain_id === r.id);
      r.assets = mine.filter((a) => !gw.has(a.platform_id)).map((a) => ({ id: a.id, name: a.name }));
      r.__gateways = mine.filter((a) => gw.has(a.platform_id)).map((a) => ({ id: a.id, name: a.name }));
    }
  },
  hooks: {
    async afterCreate({ ctx, id, data }) {
      await setAssets(ctx, id, data.assets);
    },
    async afterUpdate({ ctx, id, data }) {
      await setAssets(ctx, id, data.assets);
    },
  },
};

/** Sets the domain's non-gateway assets (gateways stay). */
async function setAssets(
  ctx: Parameters<NonNullable<ResourceDef['prepare']>>[1],
  domainId: string,
  raw: unknown,
): Promise<void> {
  if (typeof raw !== 'string' && !Array.isArray(raw)) return;
  const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as unknown[];
  const ids = list.map((x) =>
    x && typeof x === 'object'
      ? String((x as { id?: unknown; pk?: unknown }).id ?? (x as { pk?: unknown }).pk)
      : String(x),
  );
  await ctx.db
    .updateTable('assets_asset')
    .set({ domain_id: null })
    .where('domain_id', '=', domainId)
    .where('platform_id', 'not in', gatewayIds(ctx.db))
    .execute();
  if (ids.length) {
    await ctx.db
      .updateTable('assets_asset')
      .set({ domain_id: domainId })
      .where('id', 'in', ids)
      .where('org_id', '=', ctx.req.org.id)
      .where('platform_id', 'in', ctx.db.selectFrom('assets_platform').select('id').where('domain_enabled', '=', true))
      .execute();
  }
}

export const labelResource: ResourceDef = {
  model: 'label',
  app: 'assets',
  url: '/api/v1/assets/labels/',
  table: 'assets_label',
  label: M.label,
  orgScoped: true,
  defaultOrder: ['name', 'value'],
  fieldsMini: ['id', 'name', 'value'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, search: true, filter: true, order: true }),
    value: f.string(M.value, { required: true, search: true, filter: true, order: true }),
    category: f.choice(
      M.category,
      [
        { value: 'S', label: M.system },
        { value: 'U', label: M.user },
      ],
      { readOnly: true },
    ),
    is_active: f.bool(L.is_active, { default: true, filter: true }),
    comment: f.comment(),
    asset_count: f.computed('integer', M.asset_count, (r) => Number(r.__count ?? 0)),
    assets: f.m2m(
      M.asset,
      {
        table: 'assets_asset',
        through: { table: 'assets_asset_labels', left: 'label_id', right: 'asset_id' },
        choosable: (q, ctx) => q.where(sql.ref('assets_asset.org_id'), '=', ctx.req.org.id),
      },
      { default: [] },
    ),
    date_created: f.dateCreated(),
  },
  async prepare(rows, ctx) {
    if (!rows.length) return;
    const counts = await ctx.db
      .selectFrom('assets_asset_labels')
      .select(['label_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where(
        'label_id',
        'in',
        rows.map((r) => r.id),
      )
      .groupBy('label_id')
      .execute();
    for (const r of rows) r.__count = counts.find((c) => c.label_id === r.id)?.n ?? 0;
  },
  hooks: {
    async validate(data, ctx) {
      const name = (data.name ?? ctx.before?.name) as string;
      const value = (data.value ?? ctx.before?.value) as string;
      let q = ctx.db
        .selectFrom('assets_label')
        .select('id')
        .where('org_id', '=', ctx.before?.org_id ?? ctx.req.org.id)
        .where('name', '=', name)
        .where('value', '=', value);
      if (ctx.id) q = q.where('id', '!=', ctx.id);
      return (await q.executeTakeFirst()) ? { value: [`${name}:${value} ✕`] } : undefined;
    },
    beforeInsert(values) {
      values.category = 'U';
    },
  },
};
