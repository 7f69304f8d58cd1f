import { sql } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { f } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import { childNamed, fullValues, inSubtree, nextChildKey, nodeDb, orgRoot } from './nodeStore.ts';
import { DEPTH_MAX, ensureParent, pathExists, searchFullValue, SEGMENT_MAX, segmentsOf } from './nodePaths.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type assetsMessages from '../../platform/i18n/locales/en/assets.json';
const M = catalogue<typeof assetsMessages>('assets');

/**
 * Nodes (`/api/v1/assets/nodes/`): created at the org root by `value`, or anywhere by
 * `full_value` (missing ancestors created), renamed, deleted when empty.
 */

export { fullValues };

async function checkName(
  ctx: ResourceCtx,
  parentKey: string,
  value: string,
  selfId?: string,
): Promise<string | undefined> {
  if (value.includes('/')) return am(ctx.req.lang, 'node_slash');
  const same = await childNamed(nodeDb(ctx), parentKey, value);
  return same && same.id !== selfId ? am(ctx.req.lang, 'node_duplicate') : undefined;
}

/** A create by path: at least one name below the org root, each a valid name, and not all existing. */
async function validatePath(ctx: ResourceCtx, path: string): Promise<Record<string, string[]> | undefined> {
  const lang = ctx.req.lang;
  const { root, parts } = await segmentsOf(ctx, path);
  if (!parts.length) return { full_value: [am(lang, 'node_path_required')] };
  if (parts.length > DEPTH_MAX) return { full_value: [am(lang, 'node_path_depth', { n: DEPTH_MAX })] };
  if (parts.some((p) => p.length > SEGMENT_MAX))
    return { full_value: [am(lang, 'node_path_segment', { n: SEGMENT_MAX })] };
  if (await pathExists(ctx, root, parts)) return { full_value: [am(lang, 'node_path_exists')] };
  return undefined;
}

export const nodeResource: ResourceDef = {
  model: 'node',
  app: 'assets',
  url: '/api/v1/assets/nodes/',
  table: 'assets_node',
  label: M.node,
  orgScoped: true,
  defaultOrder: ['key'],
  fieldsMini: ['id', 'key', 'value'],
  fields: {
    id: f.id(),
    key: f.string(M.key, { readOnly: true, filter: true, order: true }),
    // Required unless full_value is given (checked by the validate hook).
    value: f.string(M.value, { filter: true, order: true }),
    name: f.computed('string', M.name, (r) => r.value),
    // Computed by prepare from the ancestors' values; written only on create (the node's path).
    full_value: f.text(M.full_value, { column: false, maxLength: 4096 }),
    assets_amount: f.computed('integer', M.assets_amount, (r) => Number(r.assets_amount)),
  },
  async prepare(rows, ctx) {
    const full = await fullValues(
      ctx,
      rows.map((r) => String(r.key)),
    );
    for (const r of rows) r.full_value = full.get(r.key) ?? '';
  },
  extraFilters: { search: searchFullValue },
  hooks: {
    async validate(data, ctx) {
      if (!ctx.before && data.full_value) return validatePath(ctx, String(data.full_value));
      if (!ctx.before && !data.value) return { value: [am(ctx.req.lang, 'node_path_required')] };
      if (ctx.before && data.full_value !== undefined) {
        const current = (await fullValues(ctx, [String(ctx.before.key)])).get(String(ctx.before.key));
        if (data.full_value !== current) return { full_value: [am(ctx.req.lang, 'node_path_update')] };
      }
      if (data.value === undefined) return undefined;
      if (ctx.before && ctx.before.parent_key === '') return { value: [am(ctx.req.lang, 'root_rename')] };
      const parentKey = ctx.before ? String(ctx.before.parent_key) : (await orgRoot(nodeDb(ctx), ctx.req.org.id)).key;
      const bad = await checkName(ctx, parentKey, String(data.value), ctx.id);
      return bad ? { value: [bad] } : undefined;
    },
    async beforeInsert(values, data, ctx) {
      let parent = await orgRoot(nodeDb(ctx), ctx.req.org.id);
      if (data.full_value) {
        const { root, parts } = await segmentsOf(ctx, String(data.full_value));
        parent = await ensureParent(ctx, root, parts);
        values.value = parts[parts.length - 1];
      }
      Object.assign(values, {
        key: await nextChildKey(nodeDb(ctx), parent.key),
        parent_key: parent.key,
        child_mark: 0,
        assets_amount: 0,
        date_create: new Date().toISOString(),
      });
    },
    async beforeDelete(row, ctx) {
      if (row.parent_key === '')
        throw new ApiError(403, { error: am(ctx.req.lang, 'root_delete', { name: row.value }) });
      const fresh = await ctx.db
        .selectFrom('assets_node')
        .select('assets_amount')
        .where('id', '=', row.id)
        .executeTakeFirst();
      if (Number(fresh?.assets_amount ?? 0) > 0)
        throw new ApiError(403, { error: am(ctx.req.lang, 'node_has_assets') });
      await ctx.db
        .deleteFrom('assets_node')
        .where('org_id', '=', row.org_id)
        .where(sql.ref('key'), '!=', row.key)
        .where(inSubtree(nodeDb(ctx), 'key', row.key))
        .execute();
    },
  },
};

export type { Row };
