import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { toBool } from '../../platform/db/schema.ts';
import { rt } from '../../resource/messages.ts';
import type { ResourceCtx, ResourceDef, Row, WriteEvent } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import { ancestorKeys, keysOfNodes, nodeDb, nodesOfAssets, orgRoot, recount } from './nodeStore.ts';

/** What is special about writing an asset: platform rules, protocols, nodes and their counts. */

type Errors = Record<string, string[]>;
const NO_BULK_DOMAIN = ['device', 'cloud', 'web'];
/** Node ids an asset was in before an update, to recount the nodes it left. */
const formerNodes = new WeakMap<Row, string[]>();
const deletedNodes = new WeakMap<FastifyRequest, string[]>();

export async function platformProtocols(ctx: ResourceCtx, platformIds: number[]) {
  if (!platformIds.length) return [];
  return ctx.db
    .selectFrom('assets_platformprotocol')
    .selectAll()
    .where('platform_id', 'in', [...new Set(platformIds)])
    .orderBy('position')
    .execute();
}

function checkProtocols(
  lang: FastifyRequest['lang'],
  given: { name: string; port: number }[],
  allowed: { name: string; required: unknown }[],
): string | undefined {
  const names = new Set<string>();
  for (const p of given) {
    if (!allowed.some((a) => a.name === p.name)) return am(lang, 'protocol_unsupported', { name: p.name });
    if (names.has(p.name)) return am(lang, 'protocol_duplicate', { name: p.name });
    names.add(p.name);
  }
  const missing = allowed.find((a) => toBool(a.required as number) && !names.has(a.name));
  return missing ? am(lang, 'protocol_required', { name: missing.name }) : undefined;
}

export function assetValidate(category: string | undefined, opts: { gateway?: boolean } = {}) {
  return async (data: Row, ctx: ResourceCtx & { id?: string; before?: Row }): Promise<Errors | undefined> => {
    const lang = ctx.req.lang;
    const before = ctx.before;
    if (opts.gateway && !before) {
      const gw = await ctx.db
        .selectFrom('assets_platform')
        .select('id')
        .where('name', '=', 'Gateway')
        .executeTakeFirstOrThrow();
      data.platform = gw.id;
    }
    const platformId = data.platform ?? before?.platform_id;
    const platform = await ctx.db
      .selectFrom('assets_platform')
      .selectAll()
      .where('id', '=', Number(platformId))
      .executeTakeFirst();
    if (!platform) return { platform: [rt(lang, 'required')] };
    if (category && platform.category !== category) return { platform: [am(lang, 'platform_category', { category })] };
    if (before && data.platform !== undefined && Number(data.platform) !== Number(before.platform_id)) {
      if (platform.category !== before.category)
        return { platform: [am(lang, 'platform_category', { category: before.category })] };
      if (ctx.bulk && platform.type !== before.type)
        return { platform: [am(lang, 'platform_type_mismatch', { new: platform.type, old: before.type })] };
    }
    if (ctx.bulk && before && data.domain && NO_BULK_DOMAIN.includes(before.category))
      return { domain: [am(lang, 'domain_unsupported')] };
    if (!before || data.platform !== undefined) {
      data.category = platform.category;
      data.type = platform.type;
    }
    if (!toBool(platform.domain_enabled) && (!before || 'domain' in data || data.platform !== undefined))
      data.domain = null;
    if (opts.gateway && !before && !data.domain) return { domain: [am(lang, 'gateway_domain')] };
    const allowed = await platformProtocols(ctx, [platform.id]);
    if (!before && data.protocols === undefined) {
      data.protocols = allowed
        .filter((p) => toBool(p.required) || toBool(p.primary) || toBool(p.default))
        .map((p) => ({ name: p.name, port: p.port }));
    }
    if (data.protocols !== undefined) {
      const bad = checkProtocols(lang, data.protocols as { name: string; port: number }[], allowed);
      if (bad) return { protocols: [bad] };
    }
    if (['postgresql', 'mongodb'].includes(platform.type) && 'db_name' in data && !data.db_name)
      return { db_name: [rt(lang, 'required')] };
    if (Array.isArray(data.nodes_display))
      data.nodes = [...new Set([...((data.nodes as string[] | undefined) ?? []), ...(data.nodes_display as string[])])];
    if (Array.isArray(data.nodes) && !data.nodes.length && (!before || 'nodes' in data)) {
      data.nodes = [(await orgRoot(nodeDb(ctx), before?.org_id ?? ctx.req.org.id)).id];
    }
    if (before && Array.isArray(data.nodes)) formerNodes.set(data, await nodesOfAssets(nodeDb(ctx), [before.id]));
    return undefined;
  };
}

async function writeProtocols(
  ctx: ResourceCtx,
  assetId: string,
  protocols: { name: string; port: number }[],
): Promise<void> {
  await ctx.db.deleteFrom('assets_protocol').where('asset_id', '=', assetId).execute();
  if (protocols.length)
    await ctx.db
      .insertInto('assets_protocol')
      .values(protocols.map((p) => ({ id: randomUUID(), asset_id: assetId, name: p.name, port: p.port })))
      .execute();
}

async function afterWrite({ ctx, id, data }: WriteEvent): Promise<void> {
  if (Array.isArray(data.protocols)) await writeProtocols(ctx, id, data.protocols as { name: string; port: number }[]);
  if (Array.isArray(data.nodes)) {
    const n = nodeDb(ctx);
    const keys = await keysOfNodes(n, [...(data.nodes as string[]), ...(formerNodes.get(data) ?? [])]);
    await recount(n, keys);
  }
}

export const assetWriteHooks: NonNullable<ResourceDef['hooks']> = {
  beforeInsert(values) {
    values.connectivity = '-';
    values.gathered_info = '{}';
  },
  afterCreate: afterWrite,
  afterUpdate: afterWrite,
  async beforeDelete(row, ctx) {
    const list = deletedNodes.get(ctx.req) ?? [];
    list.push(...(await nodesOfAssets(nodeDb(ctx), [row.id])));
    deletedNodes.set(ctx.req, list);
  },
  async afterDelete(_rows, ctx) {
    const nodes = deletedNodes.get(ctx.req) ?? [];
    deletedNodes.delete(ctx.req);
    const n = nodeDb(ctx);
    await recount(n, await keysOfNodes(n, [...new Set(nodes)]));
  },
};

/** Protocols, node paths and automation settings of a page of assets. */
export async function prepareAssets(rows: Row[], ctx: ResourceCtx): Promise<void> {
  if (!rows.length) return;
  const ids = rows.map((r) => String(r.id));
  const protos = await ctx.db
    .selectFrom('assets_protocol')
    .select(['asset_id', 'name', 'port'])
    .where('asset_id', 'in', ids)
    .execute();
  const platforms = await ctx.db
    .selectFrom('assets_platform')
    .selectAll()
    .where('id', 'in', [...new Set(rows.map((r) => Number(r.platform_id)))])
    .execute();
  const pprotos = await platformProtocols(
    ctx,
    platforms.map((p) => p.id),
  );
  const links = await ctx.db
    .selectFrom('assets_asset_nodes as an')
    .innerJoin('assets_node as n', 'n.id', 'an.node_id')
    .select(['an.asset_id', 'n.key'])
    .where('an.asset_id', 'in', ids)
    .execute();
  const allKeys = [...new Set(links.flatMap((l) => ancestorKeys(l.key)))];
  const values = new Map<string, string>();
  for (let i = 0; i < allKeys.length; i += 500) {
    for (const r of await ctx.db
      .selectFrom('assets_node')
      .select(['key', 'value'])
      .where('key', 'in', allKeys.slice(i, i + 500))
      .execute())
      values.set(r.key, r.value);
  }
  const pathOf = (key: string) =>
    `/${ancestorKeys(key)
      .map((k) => values.get(k) ?? '')
      .join('/')}`;
  for (const r of rows) {
    const order = pprotos.filter((p) => p.platform_id === Number(r.platform_id));
    const pos = (name: string) => {
      const p = order.find((o) => o.name === name);
      return p ? (toBool(p.primary) ? -1 : p.position) : 99;
    };
    r.protocols = protos
      .filter((p) => p.asset_id === r.id)
      .map((p) => ({ name: p.name, port: Number(p.port) }))
      .sort((a, b) => pos(a.name) - pos(b.name));
    r.nodes_display = links
      .filter((l) => l.asset_id === r.id)
      .map((l) => pathOf(l.key))
      .sort();
    const pl = platforms.find((p) => p.id === Number(r.platform_id));
    r.__auto_config = pl
      ? {
          su_enabled: toBool(pl.su_enabled),
          domain_enabled: toBool(pl.domain_enabled),
          ansible_enabled: false,
          ...JSON.parse(pl.automation),
        }
      : null;
  }
}
