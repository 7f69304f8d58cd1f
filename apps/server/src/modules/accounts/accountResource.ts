import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { f } from '../../resource/fields.ts';
import { anyContains } from '../../resource/textSearch.ts';
import type { AnyQuery, ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { assetsUnder } from '../assets/assetParsers.ts';
import { isInt } from '../assets/assetParsers.ts';
import { ACCOUNT_MESSAGES as M } from './accountMessages.ts';
import {
  CONNECTIVITY_CHOICES,
  ON_INVALID_CHOICES,
  SOURCE_CHOICES,
  baseAccountFields,
  categoryOut,
  isTrue,
  typeOut,
} from './accountFields.ts';
import { accountHooks, preparePlatforms, platformOfAsset } from './accountHooks.ts';

/**
 * `accounts/`: the accounts of assets. Secrets are write-only here; they are
 * read only through `account-secrets/` (secretRoutes.ts), behind the secret permission and a
 * fresh re-verification.
 */
const T = 'accounts_account';
const ref = (c: string) => sql.ref(`${T}.${c}`);

/** Narrows accounts to those whose asset matches `where` (a query on assets_asset). */
function byAsset(q: AnyQuery, ctx: ResourceCtx, where: (a: AnyQuery) => AnyQuery): AnyQuery {
  const sub = where(ctx.db.selectFrom('assets_asset').select('assets_asset.id') as unknown as AnyQuery);
  return q.where(ref('asset_id'), 'in', sub);
}

async function nodeFilter(q: AnyQuery, value: string, ctx: ResourceCtx): Promise<AnyQuery> {
  const node = await ctx.db
    .selectFrom('assets_node')
    .select('key')
    .where((eb) => eb.or([eb('id', '=', value), eb('key', '=', value)]))
    .$if(ctx.req.org.id !== ROOT_ORG_ID, (qb) => qb.where('org_id', '=', ctx.req.org.id))
    .executeTakeFirst();
  if (!node) return q.where(sql.lit(false));
  return q.where(ref('asset_id'), 'in', assetsUnder(ctx, node.key, false));
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const EXTRA_FILTERS: ResourceDef['extraFilters'] = {
  asset_id: (q, v) => q.where(ref('asset_id'), '=', v),
  assets: (q, v) => q.where(ref('asset_id'), 'in', list(v).length ? list(v) : ['']),
  ip: (q, v, ctx) => byAsset(q, ctx, (a) => a.where('assets_asset.address', '=', v)),
  address: (q, v, ctx) => byAsset(q, ctx, (a) => a.where('assets_asset.address', '=', v)),
  hostname: (q, v, ctx) => byAsset(q, ctx, (a) => a.where('assets_asset.name', '=', v)),
  node: nodeFilter,
  node_id: nodeFilter,
  nodes: nodeFilter,
  has_secret: (q, v) => (isTrue(v) ? q.where(ref('secret'), 'is not', null) : q.where(ref('secret'), 'is', null)),
  platform: (q, v, ctx) =>
    byAsset(q, ctx, (a) =>
      isInt(v)
        ? a.where('assets_asset.platform_id', '=', Number(v))
        : a.where(
            'assets_asset.platform_id',
            'in',
            ctx.db.selectFrom('assets_platform').select('id').where('name', '=', v),
          ),
    ),
  category: (q, v, ctx) => byAsset(q, ctx, (a) => a.where('assets_asset.category', '=', v)),
  type: (q, v, ctx) => byAsset(q, ctx, (a) => a.where('assets_asset.type', '=', v)),
  // Search spans the account and its asset: username, name, comment, asset name and address, each
  // part through its table's substring index when it helps (resource/textSearch.ts).
  search: async (q, raw, ctx) => {
    for (const term of raw.split(/[\s,]+/).filter(Boolean)) {
      const assets = ctx.db
        .selectFrom('assets_asset')
        .select('assets_asset.id')
        .where(await anyContains(ctx, 'assets_asset', ['name', 'address'], term))
        .$if(ctx.req.org.id !== ROOT_ORG_ID, (qb) => qb.where('assets_asset.org_id', '=', ctx.req.org.id));
      const own = await anyContains(ctx, T, ['username', 'name', 'comment'], term);
      q = q.where((eb) => eb.or([own, eb(ref('asset_id'), 'in', assets)]));
    }
    return q;
  },
};

const base = baseAccountFields();

export const accountResource: ResourceDef = {
  model: 'account',
  app: 'accounts',
  url: '/api/v1/accounts/accounts/',
  table: T,
  label: M.model_account,
  orgScoped: true,
  fields: {
    ...base,
    su_from: f.fk(
      M.field_su_from,
      {
        table: T,
        output: (r) => ({ id: r.id, name: r.name, username: r.username }),
        choosable: (q, ctx) => q.where(ref('org_id'), '=', ctx.req.org.id),
      },
      { default: null },
    ),
    asset: f.fk(
      M.field_asset,
      {
        table: 'assets_asset',
        output: (a, ctx) => {
          const p = platformOfAsset(ctx, String(a.id));
          return {
            id: a.id,
            name: a.name,
            address: a.address,
            type: typeOut(a.type, ctx.req),
            category: categoryOut(a.category, ctx.req),
            platform: p ? { id: p.id, name: p.name } : null,
            auto_config: p
              ? { su_enabled: p.su_enabled, domain_enabled: p.domain_enabled, ansible_enabled: false }
              : {},
          };
        },
        choosable: (q, ctx) => q.where(sql.ref('assets_asset.org_id'), '=', ctx.req.org.id),
      },
      { required: true, filter: true },
    ),
    version: f.int(M.field_version, { readOnly: true }),
    source: f.choice(M.field_source, SOURCE_CHOICES, { default: 'local', filter: true }),
    source_id: f.string(M.field_source_id, { default: null, filter: true, maxLength: 36 }),
    connectivity: f.choice(M.field_connectivity, CONNECTIVITY_CHOICES, { readOnly: true, filter: true }),
    date_verified: f.datetime(M.field_date_verified, { readOnly: true }),
    template: f.string(M.field_template, { writeOnly: true, column: false, maxLength: 36 }),
    push_now: f.bool(M.field_push_now, { writeOnly: true, column: false }),
    params: f.json(M.field_params, { default: {}, noExport: true }),
    on_invalid: f.choice(M.field_on_invalid, ON_INVALID_CHOICES, { writeOnly: true, column: false, default: 'error' }),
  },
  fieldsMini: ['id', 'name', 'username'],
  fieldsSmall: ['id', 'name', 'username', 'secret_type', 'privileged', 'asset'],
  defaultOrder: ['name'],
  extraFilters: EXTRA_FILTERS,
  nameOf: (row: Row) => String(row.name),
  prepare: preparePlatforms,
  hooks: accountHooks,
};
