import { sql } from 'kysely';
import {
  COMMAND_STORAGE_LABELS,
  COMMAND_STORAGE_META,
  COMMAND_STORAGE_TYPES,
  REPLAY_STORAGE_LABELS,
  REPLAY_STORAGE_META,
  REPLAY_STORAGE_TYPES,
  type I18nText,
  type StorageMetaField,
} from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { f } from '../../../resource/fields.ts';
import { dyn, type ResourceCtx, type ResourceDef, type Row } from '../../../resource/types.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { SM } from './messages.ts';
import { checkMeta, parseMeta, publicMeta, sealMeta } from './storageMeta.ts';

/**
 * A storage resource (system-wide, `terminal.*_<model>`): `replay-storages/` (replayStorages.ts) and
 * `command-storages/` (commandStorages.ts), each with its built-in `server` storage and the types
 * of its declaration. `meta` holds the type's settings (contract `REPLAY_STORAGE_META`), secrets
 * sealed and never answered; an empty secret on an update keeps the stored one. Exactly one storage
 * is the default: making one default unmarks the others, and the default cannot be unmarked or
 * deleted. A storage whose objects rows still name (`inUse`) cannot be deleted.
 */
export interface StorageKind {
  model: string;
  url: string;
  table: 'terminal_replaystorage' | 'terminal_commandstorage';
  label: I18nText;
  types: readonly string[];
  labels: Readonly<Record<string, I18nText>>;
  meta: Readonly<Record<string, readonly StorageMetaField[]>>;
  /** How many stored objects name the storage (they would be lost with it). */
  inUse?: (ctx: ResourceCtx, id: string) => Promise<number>;
}

const isBuiltin = (row: Row | undefined) => row?.type === 'server';
const asLists = (e: Record<string, string>) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, [v]]));

async function refuseDelete(kind: StorageKind, ctx: ResourceCtx, rows: Row[]): Promise<void> {
  const lang = ctx.req.lang;
  for (const row of rows) {
    if (isBuiltin(row)) throw new ApiError(400, { error: tr(lang, SM.builtin_storage) });
    if (row.is_default === true || row.is_default === 1)
      throw new ApiError(400, { error: tr(lang, SM.default_storage_delete) });
    const count = (await kind.inUse?.(ctx, String(row.id))) ?? 0;
    if (count > 0) throw new ApiError(400, { error: tr(lang, SM.storage_in_use, { count }) });
  }
}

async function unmarkOthers(kind: StorageKind, ctx: ResourceCtx, id: string, data: Row): Promise<void> {
  if (data.is_default !== true) return;
  await ctx.db
    .updateTable(kind.table)
    .set({ is_default: false })
    .where('id', '!=', id)
    .where('is_default', '=', sql<boolean>`${true}`)
    .execute();
}

export const storageResource = (kind: StorageKind): ResourceDef => ({
  model: kind.model,
  app: 'terminal',
  url: kind.url,
  table: kind.table,
  label: kind.label,
  orgScoped: false,
  defaultOrder: ['name'],
  fields: {
    id: f.id(),
    name: f.string(SM.field_name, { required: true, search: true, order: true, unique: true, filter: true }),
    type: f.choice(
      SM.field_type,
      kind.types.map((v) => ({ value: v, label: kind.labels[v]! })),
      { required: true, filter: true },
    ),
    meta: f.json(SM.field_meta, {
      default: {},
      out: (stored, _ctx, row) => publicMeta(kind.meta[String(row.type)] ?? [], parseMeta(stored)),
    }),
    is_default: f.bool(SM.field_is_default, { default: false, filter: true }),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  hooks: {
    async validate(data, ctx) {
      const lang = ctx.req.lang;
      const before = ctx.before;
      if (before && data.type !== undefined && data.type !== before.type) return { type: [tr(lang, SM.type_fixed)] };
      const type = String(data.type ?? before?.type);
      const fields = kind.meta[type] ?? [];
      if (type === 'server' && (!before || data.meta !== undefined || data.name !== undefined))
        return { type: [tr(lang, SM.builtin_storage)] };
      if (before && before.is_default && data.is_default === false)
        return { is_default: [tr(lang, SM.default_storage_delete)] };
      if (type === 'server') return undefined;
      if (before && data.meta === undefined) return undefined;
      const input = parseMeta(data.meta);
      const bad = checkMeta(fields, input, lang);
      // Nested as DRF answers a nested serializer: `{meta: {BUCKET: ["…"]}}`.
      if (Object.keys(bad).length) return { meta: asLists(bad) } as unknown as Record<string, string[]>;
      const sealed = sealMeta(fields, input, parseMeta(before?.meta), ctx.req.server.deps.secretBox, lang);
      if (sealed.errors) return { meta: asLists(sealed.errors) } as unknown as Record<string, string[]>;
      data.meta = JSON.stringify(sealed.meta);
      return undefined;
    },
    async afterCreate({ ctx, id, data }) {
      await unmarkOthers(kind, ctx, id, data);
    },
    async afterUpdate({ ctx, id, data }) {
      await unmarkOthers(kind, ctx, id, data);
    },
    async beforeDelete(row, ctx) {
      await refuseDelete(kind, ctx, [row]);
    },
    async beforeBulkDelete(ids, ctx) {
      const rows = (await dyn(ctx).selectFrom(kind.table).selectAll().where('id', 'in', ids).execute()) as Row[];
      await refuseDelete(kind, ctx, rows);
    },
  },
});

export const replayStorageResource = storageResource({
  model: 'replaystorage',
  url: '/api/v1/terminal/replay-storages/',
  table: 'terminal_replaystorage',
  label: SM.model_replaystorage,
  types: REPLAY_STORAGE_TYPES,
  labels: REPLAY_STORAGE_LABELS,
  meta: REPLAY_STORAGE_META,
  inUse: async (ctx, id) => {
    const used = await ctx.db
      .selectFrom('terminal_session')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('replay_storage_id', '=', id)
      .executeTakeFirst();
    return Number(used?.n ?? 0);
  },
});

export const commandStorageResource = storageResource({
  model: 'commandstorage',
  url: '/api/v1/terminal/command-storages/',
  table: 'terminal_commandstorage',
  label: SM.model_commandstorage,
  types: COMMAND_STORAGE_TYPES,
  labels: COMMAND_STORAGE_LABELS,
  meta: COMMAND_STORAGE_META,
});
