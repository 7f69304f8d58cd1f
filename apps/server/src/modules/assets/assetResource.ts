import { sql } from 'kysely';
import { ASSET_CATEGORIES, ROOT_ORG_ID, assetsApiPath, type CategoryValue, type I18nText } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import type { AnyQuery, FieldDef, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import { CATEGORY_FIELDS, COMMON_FIELDS, labelFilter } from './assetFields.ts';
import { assetValidate, assetWriteHooks, prepareAssets } from './assetHooks.ts';
import { assetsUnder } from './assetParsers.ts';
import { protocolsForExport } from './exportCells.ts';
import { assetAccounts } from './assetAccountsPort.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type accountMessages from '../../platform/i18n/locales/en/accounts.json';
import type { Row, WriteEvent } from '../../resource/types.ts';
import type assetsMessages from '../../platform/i18n/locales/en/assets.json';
import { queryFlag } from '../../http/queryString.ts';
import { parseBool } from '../../resource/coerce.ts';
const M = catalogue<typeof assetsMessages>('assets');

const ACCOUNT_MESSAGES = catalogue<typeof accountMessages>('accounts');

/** `accounts` of an asset write: a list of account objects, created with the asset (modules/accounts). */
const accountsField: FieldDef = {
  type: 'list',
  label: ACCOUNT_MESSAGES.field_accounts,
  column: false,
  noExport: true,
  child: { type: 'nested object' },
  async parse(v, ctx) {
    if (!Array.isArray(v) || v.some((i) => !i || typeof i !== 'object' || Array.isArray(i)))
      return { error: ACCOUNT_MESSAGES.accounts_list[ctx.req.lang] };
    return { value: v };
  },
};

async function withAccounts(e: WriteEvent, then?: (e: WriteEvent) => Promise<void> | void): Promise<void> {
  await then?.(e);
  if (Array.isArray(e.data.accounts) && e.data.accounts.length)
    await assetAccounts(e.ctx)?.create(e.ctx, e.id, e.data.accounts as Row[]);
}

/**
 * Asset endpoints: `assets/` over every category (no create), one endpoint per
 * category, and `gateways/` (hosts of the Gateway platform). All share the RBAC model
 * `assets.asset`, except gateways (`assets.gateway`).
 */
const T = 'assets_asset';
async function nodeFilter(q: AnyQuery, value: string, ctx: ResourceCtx): Promise<AnyQuery> {
  const query = ctx.req.query as Record<string, string | undefined>;
  const node = await ctx.db
    .selectFrom('assets_node')
    .select('key')
    .where((eb) => eb.or([eb('id', '=', value), eb('key', '=', value)]))
    .$if(ctx.req.org.id !== ROOT_ORG_ID, (qb) => qb.where('org_id', '=', ctx.req.org.id))
    .executeTakeFirst();
  if (!node) return q.where(sql.lit(false));
  const direct = queryFlag(query.show_current_asset as string | undefined) || parseBool(query.all) === false;
  return q.where(sql.ref(`${T}.id`), 'in', assetsUnder(ctx, node.key, direct));
}

const EXTRA_FILTERS: ResourceDef['extraFilters'] = {
  node: nodeFilter,
  node_id: nodeFilter,
  ips: (q, value) =>
    q.where(
      sql.ref(`${T}.address`),
      'in',
      value.split(',').map((s) => s.trim()),
    ),
  label: (q, value, ctx) => labelFilter(q, value, ctx),
  domain_enabled: (q, value, ctx) =>
    q.where(
      sql.ref(`${T}.platform_id`),
      'in',
      ctx.db
        .selectFrom('assets_platform')
        .select('id')
        .where('domain_enabled', '=', ['1', 'true', 'True'].includes(value)),
    ),
};

interface AssetKind {
  model: string;
  url: string;
  label: I18nText;
  category?: CategoryValue;
  gateway?: boolean;
}

/** `assets/`, one kind per category of the contract's table (ASSET_CATEGORIES), then `gateways/`. */
export const ASSET_KINDS: AssetKind[] = [
  { model: 'asset', url: assetsApiPath(), label: M.asset },
  ...ASSET_CATEGORIES.map((c) => ({
    model: c.value,
    url: assetsApiPath(c.value),
    label: c.resourceLabel,
    category: c.value,
  })),
  {
    model: 'gateway',
    url: '/api/v1/assets/gateways/',
    label: M.gateway,
    category: 'host',
    gateway: true,
  },
];

export function assetResource(kind: AssetKind): ResourceDef {
  const extra = kind.category ? CATEGORY_FIELDS[kind.category] : {};
  const { comment, created_by, date_created, date_updated, ...common } = COMMON_FIELDS;
  const fields: Record<string, FieldDef> = {
    ...common,
    ...extra,
    accounts: accountsField,
    comment: comment!,
    created_by: created_by!,
    date_created: date_created!,
    date_updated: date_updated!,
  };
  if (kind.category === 'web' || kind.category === 'cloud') fields.address = { ...fields.address!, label: M.url };
  return {
    model: kind.model,
    app: 'assets',
    url: kind.url,
    table: T,
    label: kind.label,
    orgScoped: true,
    fields,
    fieldsMini: ['id', 'name', 'address'],
    fieldsSmall: ['id', 'name', 'address', 'platform', 'protocols', 'is_active', 'connectivity'],
    defaultOrder: ['name'],
    permModel: kind.gateway ? 'gateway' : 'asset',
    extraFilters: EXTRA_FILTERS,
    scope(q, ctx) {
      if (kind.gateway)
        return q.where(
          sql.ref(`${T}.platform_id`),
          'in',
          ctx.db.selectFrom('assets_platform').select('id').where('name', '=', 'Gateway'),
        );
      return kind.category ? q.where(sql.ref(`${T}.category`), '=', kind.category) : q;
    },
    async prepare(rows, ctx) {
      await prepareAssets(rows, ctx);
      protocolsForExport(rows, ctx);
      // One asset answered on its own (detail, create, update) carries its accounts (no secrets).
      const params = ctx.req.params as { id?: string } | undefined;
      if (rows.length === 1 && (params?.id || ctx.req.method !== 'GET'))
        rows[0]!.accounts = (await assetAccounts(ctx)?.ofAsset(ctx, String(rows[0]!.id))) ?? [];
    },
    hooks: {
      ...assetWriteHooks,
      afterCreate: (e) => withAccounts(e, assetWriteHooks.afterCreate),
      afterUpdate: (e) => withAccounts(e, assetWriteHooks.afterUpdate),
      beforeValidate(_body, ctx, before) {
        if (!kind.category && !before) throw new ApiError(400, { error: am(ctx.req.lang, 'create_directly') });
      },
      validate: assetValidate(kind.category, { gateway: kind.gateway ?? false }),
    },
  };
}
