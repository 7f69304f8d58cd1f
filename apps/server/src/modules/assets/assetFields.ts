import { sql } from 'kysely';
import { ASSET_CATEGORIES, type CategoryValue } from '@gatehouse/contract';
import { f, L } from '../../resource/fields.ts';
import type { AnyQuery, Choice, FieldDef, ResourceCtx } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import {
  isInt,
  parseDomain,
  parseLabels,
  parseNodePaths,
  parseNodes,
  parsePlatform,
  parseProtocols,
} from './assetParsers.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type assetsMessages from '../../platform/i18n/locales/en/assets.json';
const M = catalogue<typeof assetsMessages>('assets');

/** Field declarations of assets: the common ones and those of each category. */

export const CATEGORY_CHOICES: Choice[] = ASSET_CATEGORIES.map((c) => ({ value: c.value, label: c.label }));
export const TYPE_CHOICES: Choice[] = ASSET_CATEGORIES.flatMap((c) =>
  c.types.map((t) => ({ value: t.value, label: t.label })),
);
const CONNECTIVITY: Choice[] = [
  { value: '-', label: M.unknown },
  { value: 'ok', label: M.ok_2 },
  { value: 'err', label: M.error },
];

const T = 'assets_asset';
const exists = (q: AnyQuery, sub: AnyQuery) => q.where((eb) => eb.exists(sub));
const ref = (c: string) => sql.ref(`${T}.${c}`);

function platformFilter(q: AnyQuery, value: string, ctx: ResourceCtx): AnyQuery {
  return isInt(value)
    ? q.where(ref('platform_id'), '=', Number(value))
    : q.where(ref('platform_id'), 'in', ctx.db.selectFrom('assets_platform').select('id').where('name', '=', value));
}

export function labelFilter(q: AnyQuery, value: string, ctx: ResourceCtx): AnyQuery {
  for (const one of value.split('#').filter(Boolean)) {
    const m = /^([^:]+):(.*)$/.exec(one);
    const sub = ctx.db
      .selectFrom('assets_asset_labels as al')
      .innerJoin('assets_label as l', 'l.id', 'al.label_id')
      .select('al.id')
      .whereRef('al.asset_id', '=', `${T}.id` as never)
      .where((eb) =>
        m
          ? eb.and([eb('l.name', '=', m[1]!), eb('l.value', '=', m[2]!)])
          : eb.or([eb('l.id', '=', one), eb('l.name', '=', one), eb('l.value', '=', one)]),
      );
    q = exists(q, sub as unknown as AnyQuery);
  }
  return q;
}

export const COMMON_FIELDS: Record<string, FieldDef> = {
  id: f.id(),
  name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
  address: f.string(M.ip_host, {
    required: true,
    maxLength: 767,
    search: true,
    filter: true,
  }),
  platform: f.fk(
    M.platform,
    { table: 'assets_platform' },
    {
      required: true,
      order: true,
      parse: parsePlatform,
      filter: platformFilter,
    },
  ),
  protocols: f.list(M.protocols, {
    column: false,
    parse: parseProtocols,
    child: { type: 'nested object' },
    filter: (q, value, ctx) =>
      exists(
        q,
        ctx.db
          .selectFrom('assets_protocol')
          .select('id')
          .whereRef('assets_protocol.asset_id', '=', `${T}.id` as never)
          .where(
            'name',
            'in',
            value.split(',').map((s) => s.trim()),
          ) as unknown as AnyQuery,
      ),
  }),
  nodes: f.m2m(
    M.node,
    {
      table: 'assets_node',
      labelColumn: 'value',
      output: (r) => ({ id: r.id, name: r.value }),
      through: { table: 'assets_asset_nodes', left: 'asset_id', right: 'node_id' },
    },
    { parse: parseNodes, default: () => [] },
  ),
  nodes_display: f.list(M.node_path, { column: false, parse: parseNodePaths }),
  domain: f.fk(
    M.domain,
    { table: 'assets_domain' },
    {
      parse: parseDomain,
      filter: (q, value, ctx) =>
        q.where(
          ref('domain_id'),
          'in',
          ctx.db
            .selectFrom('assets_domain')
            .select('id')
            .where((eb) => eb.or([eb('id', '=', value), eb('name', 'like', `%${value}%`)])),
        ),
    },
  ),
  labels: f.m2m(
    M.label,
    {
      table: 'assets_label',
      output: (r) => ({ id: r.id, name: r.name, value: r.value }),
      through: { table: 'assets_asset_labels', left: 'asset_id', right: 'label_id' },
    },
    { parse: parseLabels, filter: labelFilter },
  ),
  is_active: f.bool(L.is_active, { default: true, filter: true, order: true }),
  category: f.choice(M.category, CATEGORY_CHOICES, { readOnly: true, filter: true }),
  type: f.choice(M.type, TYPE_CHOICES, { readOnly: true, filter: true }),
  connectivity: f.choice(M.connectivity, CONNECTIVITY, {
    readOnly: true,
    filter: true,
    order: true,
  }),
  date_verified: f.datetime(M.date_verified, { readOnly: true }),
  auto_config: f.computed('nested object', M.auto_config, (r) => r.__auto_config ?? null, { noExport: true }),
  comment: { ...f.comment(), search: true },
  created_by: f.createdBy(),
  date_created: f.dateCreated(),
  date_updated: f.dateUpdated(),
};

const proxyCheck = (v: unknown, c: ResourceCtx) =>
  !v || /^https?:\/\//.test(String(v)) ? undefined : am(c.req.lang, 'proxy');

/** Fields each category adds (stored in nullable columns of the one asset table). */
export const CATEGORY_FIELDS: Record<CategoryValue, Record<string, FieldDef>> = {
  host: {
    gathered_info: f.json(M.gathered_info, { readOnly: true, noExport: true }),
  },
  device: {},
  database: {
    db_name: f.string(M.default_database, {
      maxLength: 1024,
      default: '',
    }),
    use_ssl: f.bool(M.use_ssl, { default: false }),
    ca_cert: f.text(M.ca_cert, { writeOnly: true, default: '' }),
    client_cert: f.text(M.client_cert, { writeOnly: true, default: '' }),
    client_key: f.text(M.client_key, { writeOnly: true, default: '' }),
    allow_invalid_cert: f.bool(M.allow_invalid_cert, { default: false }),
  },
  cloud: {},
  web: {
    autofill: f.choice(
      M.autofill,
      [
        { value: 'no', label: M.disabled },
        { value: 'basic', label: M.basic },
        { value: 'script', label: M.script },
      ],
      { default: 'basic' },
    ),
    username_selector: f.string(M.username_selector, {
      default: 'name=username',
    }),
    password_selector: f.string(M.password_selector, {
      default: 'name=password',
    }),
    submit_selector: f.string(M.submit_selector, {
      default: 'id=login_button',
    }),
    script: f.json(M.script, { default: [] }),
  },
  gpt: {
    proxy: f.string(M.proxy_2, { default: '', validate: [proxyCheck] }),
  },
  custom: {
    custom_info: f.json(M.custom_info, { default: {} }),
  },
};
