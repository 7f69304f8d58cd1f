import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { toBool } from '../../platform/db/schema.ts';
import { f, L } from '../../resource/fields.ts';
import { rt } from '../../resource/messages.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import { CATEGORY_CHOICES } from './assetFields.ts';
import { isInt, parseProtocols } from './assetParsers.ts';
import { platformProtocols } from './assetHooks.ts';
import { PROTOCOLS, settingOf } from './protocolDefaults.ts';
import { ASSET_CATEGORIES } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type assetsMessages from '../../platform/i18n/locales/en/assets.json';
const M = catalogue<typeof assetsMessages>('assets');

/** Platforms (`/api/v1/assets/platforms/`, the JumpServer API): system-wide, integer ids, lookup by id or name. */

const SU_METHODS = [
  { value: 'sudo', label: M.sudo_su },
  { value: 'su', label: M.su },
  { value: 'enable', label: M.enable },
  { value: 'super', label: M.super_15 },
  { value: 'super_level', label: M.super_level_15 },
];

type ProtocolIn = {
  name: string;
  port: number;
  primary?: boolean;
  required?: boolean;
  default?: boolean;
  public?: boolean;
  setting?: Record<string, unknown>;
};

function refuseInternal(row: Row | undefined, ctx: ResourceCtx): void {
  if (row && toBool(row.internal)) throw new ApiError(403, { detail: am(ctx.req.lang, 'internal_platform') });
}

async function writeProtocols(ctx: ResourceCtx, platformId: number, list: ProtocolIn[]): Promise<void> {
  await ctx.db.deleteFrom('assets_platformprotocol').where('platform_id', '=', platformId).execute();
  const primary = list.findIndex((p) => p.primary);
  await ctx.db
    .insertInto('assets_platformprotocol')
    .values(
      list.map((p, i) => ({
        id: randomUUID(),
        platform_id: platformId,
        name: p.name,
        port: p.port,
        primary: i === (primary < 0 ? 0 : primary),
        required: Boolean(p.required),
        default: Boolean(p.default),
        public: p.public ?? true,
        setting: JSON.stringify(settingOf(p.name, p.setting)),
        position: i,
      })),
    )
    .execute();
}

async function parsePlatformProtocols(v: unknown, ctx: ResourceCtx) {
  const base = await parseProtocols(v, ctx);
  if (base.error) return base;
  const items = (Array.isArray(v) ? v : []) as ProtocolIn[];
  const list = (base.value as { name: string; port: number }[]).map((p, i) => ({
    ...(typeof items[i] === 'object' ? items[i] : {}),
    ...p,
  }));
  if (!list.length) return { error: rt(ctx.req.lang, 'required') };
  if (list.filter((p) => p.primary).length > 1) return { error: am(ctx.req.lang, 'protocol_primary') };
  const unknown = list.find((p) => !PROTOCOLS[p.name]);
  if (unknown) return { error: rt(ctx.req.lang, 'invalid_choice', { value: unknown.name }) };
  return { value: list };
}

export const platformResource: ResourceDef = {
  model: 'platform',
  app: 'assets',
  url: '/api/v1/assets/platforms/',
  table: 'assets_platform',
  label: M.platform,
  orgScoped: false,
  defaultOrder: ['id'],
  fieldsMini: ['id', 'name', 'category', 'type'],
  fields: {
    id: { ...f.id(), type: 'integer', order: true },
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true, maxLength: 64 }),
    internal: f.computed('boolean', M.internal, (r) => toBool(r.internal)),
    category: f.choice(M.category, CATEGORY_CHOICES, { required: true, filter: true }),
    type: {
      ...f.string(M.type, { required: true, filter: true, maxLength: 32 }),
      type: 'labeled_choice' as const,
      choices: undefined,
      parse: async (v) => ({ value: String(v && typeof v === 'object' ? (v as Row).value : v) }),
    },
    charset: f.choice(
      M.charset,
      [
        { value: 'utf-8', label: M.utf_8 },
        { value: 'gbk', label: M.gbk },
      ],
      { default: 'utf-8' },
    ),
    protocols: f.list(M.protocols, {
      column: false,
      required: true,
      parse: parsePlatformProtocols,
      child: { type: 'nested object' },
    }),
    domain_enabled: f.bool(M.domain_enabled, { default: true }),
    su_enabled: f.bool(M.su_enabled, { default: false }),
    su_method: f.choice(M.su_method, SU_METHODS),
    automation: f.json(M.automation, { default: {}, noExport: true }),
    custom_fields: f.json(M.custom_fields, { default: [] }),
    comment: f.comment(),
    created_by: f.createdBy(),
    updated_by: f.updatedBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  newId: async (ctx) => {
    const r = await ctx.db
      .selectFrom('assets_platform')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst();
    return Number(r?.m ?? 0) + 1;
  },
  lookup: (q, param) =>
    isInt(param)
      ? q.where(sql.ref('assets_platform.id'), '=', Number(param))
      : q.where(sql.ref('assets_platform.name'), '=', param),
  async prepare(rows, ctx) {
    const protos = await platformProtocols(
      ctx,
      rows.map((r) => Number(r.id)),
    );
    for (const r of rows) {
      r.protocols = protos
        .filter((p) => p.platform_id === Number(r.id))
        .map((p) => ({
          id: p.id,
          name: p.name,
          port: Number(p.port),
          port_from_addr: Boolean(PROTOCOLS[p.name]?.port_from_addr),
          primary: toBool(p.primary),
          required: toBool(p.required),
          default: toBool(p.default),
          public: toBool(p.public),
          secret_types: PROTOCOLS[p.name]?.secret_types ?? [],
          setting: JSON.parse(p.setting),
        }));
    }
  },
  hooks: {
    beforeValidate(_body, ctx, before) {
      refuseInternal(before, ctx);
    },
    async validate(data, ctx) {
      const category = (data.category ?? ctx.before?.category) as string;
      const cat = ASSET_CATEGORIES.find((c) => c.value === category);
      const type = (data.type ?? ctx.before?.type) as string;
      if (cat && cat.value !== 'custom' && data.type !== undefined && !cat.types.some((t) => t.value === type))
        return { type: [rt(ctx.req.lang, 'invalid_choice', { value: type })] };
      const cons = cat?.types.find((t) => t.value === type)?.constraints;
      if (cons && !cons.domain_enabled) data.domain_enabled = false;
      if (cons && !cons.su_enabled) data.su_enabled = false;
      return undefined;
    },
    async afterCreate({ ctx, id, data }) {
      await writeProtocols(ctx, Number(id), data.protocols as ProtocolIn[]);
    },
    async afterUpdate({ ctx, id, data }) {
      if (Array.isArray(data.protocols)) await writeProtocols(ctx, Number(id), data.protocols as ProtocolIn[]);
    },
    async beforeDelete(row, ctx) {
      refuseInternal(row, ctx);
      const used = await ctx.db
        .selectFrom('assets_asset')
        .select('id')
        .where('platform_id', '=', Number(row.id))
        .executeTakeFirst();
      if (used) throw new ApiError(400, { detail: rt(ctx.req.lang, 'referenced'), code: 'referenced' });
    },
  },
};
