import { sql } from 'kysely';
import { ASSET_CATEGORIES, text, type CategoryValue } from '@gatehouse/contract';
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

/** Field declarations of assets: the common ones and those of each category. */

export const CATEGORY_CHOICES: Choice[] = ASSET_CATEGORIES.map((c) => ({ value: c.value, label: c.label }));
export const TYPE_CHOICES: Choice[] = ASSET_CATEGORIES.flatMap((c) =>
  c.types.map((t) => ({ value: t.value, label: t.label })),
);
const CONNECTIVITY: Choice[] = [
  { value: '-', label: text('Unknown', '未知', '不明') },
  { value: 'ok', label: text('Ok', '成功', '成功') },
  { value: 'err', label: text('Error', '错误', 'エラー') },
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
  address: f.string(text('IP/Host', '地址', 'アドレス'), {
    required: true,
    maxLength: 767,
    search: true,
    filter: true,
  }),
  platform: f.fk(
    text('Platform', '系统平台', 'プラットフォーム'),
    { table: 'assets_platform' },
    {
      required: true,
      order: true,
      parse: parsePlatform,
      filter: platformFilter,
    },
  ),
  protocols: f.list(text('Protocols', '协议组', 'プロトコル'), {
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
    text('Node', '节点', 'ノード'),
    {
      table: 'assets_node',
      labelColumn: 'value',
      output: (r) => ({ id: r.id, name: r.value }),
      through: { table: 'assets_asset_nodes', left: 'asset_id', right: 'node_id' },
    },
    { parse: parseNodes, default: () => [] },
  ),
  nodes_display: f.list(text('Node path', '节点路径', 'ノードパス'), { column: false, parse: parseNodePaths }),
  domain: f.fk(
    text('Domain', '网域', 'ドメイン'),
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
    text('Label', '标签', 'ラベル'),
    {
      table: 'assets_label',
      output: (r) => ({ id: r.id, name: r.name, value: r.value }),
      through: { table: 'assets_asset_labels', left: 'asset_id', right: 'label_id' },
    },
    { parse: parseLabels, filter: labelFilter },
  ),
  is_active: f.bool(L.is_active, { default: true, filter: true, order: true }),
  category: f.choice(text('Category', '类别', 'カテゴリ'), CATEGORY_CHOICES, { readOnly: true, filter: true }),
  type: f.choice(text('Type', '类型', '種類'), TYPE_CHOICES, { readOnly: true, filter: true }),
  connectivity: f.choice(text('Connectivity', '可连接性', '接続性'), CONNECTIVITY, {
    readOnly: true,
    filter: true,
    order: true,
  }),
  date_verified: f.datetime(text('Date verified', '校验日期', '検証日'), { readOnly: true }),
  auto_config: f.computed(
    'nested object',
    text('Auto config', '自动化配置', '自動設定'),
    (r) => r.__auto_config ?? null,
    { noExport: true },
  ),
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
    gathered_info: f.json(text('Gathered info', '收集资产信息', '収集情報'), { readOnly: true, noExport: true }),
  },
  device: {},
  database: {
    db_name: f.string(text('Default database', '默认数据库', 'デフォルトデータベース'), {
      maxLength: 1024,
      default: '',
    }),
    use_ssl: f.bool(text('Use SSL', '使用 SSL', 'SSL を使用'), { default: false }),
    ca_cert: f.text(text('CA cert', 'CA 证书', 'CA 証明書'), { writeOnly: true, default: '' }),
    client_cert: f.text(text('Client cert', '客户端证书', 'クライアント証明書'), { writeOnly: true, default: '' }),
    client_key: f.text(text('Client key', '客户端密钥', 'クライアントキー'), { writeOnly: true, default: '' }),
    allow_invalid_cert: f.bool(text('Allow invalid cert', '忽略证书校验', '無効な証明書を許可'), { default: false }),
  },
  cloud: {},
  web: {
    autofill: f.choice(
      text('Autofill', '自动代填', '自動入力'),
      [
        { value: 'no', label: text('Disabled', '禁用', '無効') },
        { value: 'basic', label: text('Basic', '基本', '基本') },
        { value: 'script', label: text('Script', '脚本', 'スクリプト') },
      ],
      { default: 'basic' },
    ),
    username_selector: f.string(text('Username selector', '用户名选择器', 'ユーザー名セレクタ'), {
      default: 'name=username',
    }),
    password_selector: f.string(text('Password selector', '密码选择器', 'パスワードセレクタ'), {
      default: 'name=password',
    }),
    submit_selector: f.string(text('Submit selector', '确认按钮选择器', '送信セレクタ'), {
      default: 'id=login_button',
    }),
    script: f.json(text('Script', '脚本', 'スクリプト'), { default: [] }),
  },
  gpt: {
    proxy: f.string(text('Proxy', '代理', 'プロキシ'), { default: '', validate: [proxyCheck] }),
  },
  custom: {
    custom_info: f.json(text('Custom info', '自定义属性', 'カスタム情報'), { default: {} }),
  },
};
