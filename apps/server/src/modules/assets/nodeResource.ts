import { sql } from 'kysely';
import { text } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { f } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import { ancestorKeys, childNamed, inSubtree, nextChildKey, nodeDb, orgRoot } from './nodeStore.ts';

/** Nodes (`/api/v1/assets/nodes/`, the JumpServer API): created at the org root, renamed, deleted when empty. */

export async function fullValues(ctx: ResourceCtx, keys: string[]): Promise<Map<string, string>> {
  const all = [...new Set(keys.flatMap(ancestorKeys))];
  const values = new Map<string, string>();
  for (let i = 0; i < all.length; i += 500) {
    for (const r of await ctx.db
      .selectFrom('assets_node')
      .select(['key', 'value'])
      .where('key', 'in', all.slice(i, i + 500))
      .execute())
      values.set(r.key, r.value);
  }
  return new Map(
    keys.map((k) => [
      k,
      `/${ancestorKeys(k)
        .map((a) => values.get(a) ?? '')
        .join('/')}`,
    ]),
  );
}

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

export const nodeResource: ResourceDef = {
  model: 'node',
  app: 'assets',
  url: '/api/v1/assets/nodes/',
  table: 'assets_node',
  label: text('Node', '节点', 'ノード'),
  orgScoped: true,
  defaultOrder: ['key'],
  fieldsMini: ['id', 'key', 'value'],
  fields: {
    id: f.id(),
    key: f.string(text('Key', '键', 'キー'), { readOnly: true, filter: true, order: true }),
    value: f.string(text('Value', '值', '値'), { required: true, filter: true, order: true, search: true }),
    name: f.computed('string', text('Name', '名称', '名前'), (r) => r.value),
    full_value: f.computed('string', text('Full value', '全称', 'フルパス'), (r) => r.__full_value ?? ''),
    assets_amount: f.computed('integer', text('Assets amount', '资产数量', '資産数'), (r) => Number(r.assets_amount)),
  },
  async prepare(rows, ctx) {
    const full = await fullValues(
      ctx,
      rows.map((r) => String(r.key)),
    );
    for (const r of rows) r.__full_value = full.get(r.key);
  },
  hooks: {
    async validate(data, ctx) {
      if (data.value === undefined) return undefined;
      if (ctx.before && ctx.before.parent_key === '') return { value: [am(ctx.req.lang, 'root_rename')] };
      const parentKey = ctx.before ? String(ctx.before.parent_key) : (await orgRoot(nodeDb(ctx), ctx.req.org.id)).key;
      const bad = await checkName(ctx, parentKey, String(data.value), ctx.id);
      return bad ? { value: [bad] } : undefined;
    },
    async beforeInsert(values, _data, ctx) {
      const root = await orgRoot(nodeDb(ctx), ctx.req.org.id);
      Object.assign(values, {
        key: await nextChildKey(nodeDb(ctx), root.key),
        parent_key: root.key,
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
