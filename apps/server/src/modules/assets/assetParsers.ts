import { randomUUID } from 'node:crypto';
import { relatedPk } from '../../resource/coerce.ts';
import { rt } from '../../resource/messages.ts';
import type { ResourceCtx } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import { ensurePath, inSubtree, nodeDb, orgRoot } from './nodeStore.ts';

/**
 * Input parsers of asset fields: relations are accepted by id and, for spreadsheets, by name
 * (platform `Linux`, domain name, node key or full path, labels `name:value`).
 */
type Parsed = { value?: unknown; error?: string };

export const isInt = (s: string) => /^\d{1,9}$/.test(s);

/** The org objects are created in (an existing asset's org on update is the same: orgs never change). */
const orgOf = (ctx: ResourceCtx) => ctx.req.org.id;

export async function platformByRef(ctx: ResourceCtx, ref: string) {
  const q = ctx.db.selectFrom('assets_platform').selectAll();
  return (isInt(ref) ? q.where('id', '=', Number(ref)) : q.where('name', '=', ref)).executeTakeFirst();
}

export async function parsePlatform(v: unknown, ctx: ResourceCtx): Promise<Parsed> {
  const ref =
    relatedPk(v) ??
    (v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string'
      ? String((v as { name: string }).name)
      : undefined);
  if (!ref) return { error: rt(ctx.req.lang, 'incorrect_type', { type: typeof v }) };
  const p = await platformByRef(ctx, ref);
  return p ? { value: p.id } : { error: rt(ctx.req.lang, 'invalid_pk', { pk: ref }) };
}

export async function parseDomain(v: unknown, ctx: ResourceCtx): Promise<Parsed> {
  const ref = relatedPk(v);
  if (!ref) return { error: rt(ctx.req.lang, 'incorrect_type', { type: typeof v }) };
  const d = await ctx.db
    .selectFrom('assets_domain')
    .select('id')
    .where('org_id', '=', orgOf(ctx))
    .where((eb) => eb.or([eb('id', '=', ref), eb('name', '=', ref)]))
    .executeTakeFirst();
  return d ? { value: d.id } : { error: rt(ctx.req.lang, 'invalid_pk', { pk: ref }) };
}

/** Node ids, keys or full paths (`/Default/a`) of the current org. */
export async function parseNodes(v: unknown, ctx: ResourceCtx): Promise<Parsed> {
  if (!Array.isArray(v)) return { error: rt(ctx.req.lang, 'not_a_list', { type: typeof v }) };
  const ids: string[] = [];
  for (const item of v) {
    const ref = relatedPk(item);
    if (!ref) return { error: rt(ctx.req.lang, 'incorrect_type', { type: typeof item }) };
    if (ref.includes('/')) {
      ids.push((await ensurePath(nodeDb(ctx), orgOf(ctx), ref)).id);
      continue;
    }
    const n = await ctx.db
      .selectFrom('assets_node')
      .select('id')
      .where('org_id', '=', orgOf(ctx))
      .where((eb) => eb.or([eb('id', '=', ref), eb('key', '=', ref)]))
      .executeTakeFirst();
    if (!n) return { error: rt(ctx.req.lang, 'invalid_pk', { pk: ref }) };
    ids.push(n.id);
  }
  return { value: [...new Set(ids)] };
}

/** `nodes_display`: full paths; missing nodes are created. */
export async function parseNodePaths(v: unknown, ctx: ResourceCtx): Promise<Parsed> {
  const list = typeof v === 'string' ? v.split(/[,，\n]/) : v;
  if (!Array.isArray(list)) return { error: rt(ctx.req.lang, 'not_a_list', { type: typeof v }) };
  const ids: string[] = [];
  const root = await orgRoot(nodeDb(ctx), orgOf(ctx));
  for (const raw of list) {
    const path = String(raw).trim();
    if (!path) continue;
    ids.push((await ensurePath(nodeDb(ctx), orgOf(ctx), path.startsWith('/') ? path : `/${root.value}/${path}`)).id);
  }
  return { value: [...new Set(ids)] };
}

/** Labels by id, `{id}`, or `name:value` (created when missing). */
export async function parseLabels(v: unknown, ctx: ResourceCtx): Promise<Parsed> {
  const list = typeof v === 'string' ? v.split(/[,，]/).filter((s) => s.trim()) : v;
  if (!Array.isArray(list)) return { error: rt(ctx.req.lang, 'not_a_list', { type: typeof v }) };
  const ids: string[] = [];
  for (const item of list) {
    if (item && typeof item === 'object' && 'name' in item && 'value' in item && !('id' in item)) {
      ids.push(
        await labelId(ctx, String((item as { name: unknown }).name), String((item as { value: unknown }).value)),
      );
      continue;
    }
    const ref = relatedPk(item);
    if (!ref) return { error: am(ctx.req.lang, 'label_format') };
    const byId = await ctx.db
      .selectFrom('assets_label')
      .select('id')
      .where('id', '=', ref)
      .where('org_id', '=', orgOf(ctx))
      .executeTakeFirst();
    if (byId) {
      ids.push(byId.id);
      continue;
    }
    const m = /^([^:]+):(.+)$/.exec(ref);
    if (!m) return { error: am(ctx.req.lang, 'label_format') };
    ids.push(await labelId(ctx, m[1]!.trim(), m[2]!.trim()));
  }
  return { value: [...new Set(ids)] };
}

async function labelId(ctx: ResourceCtx, name: string, value: string): Promise<string> {
  const org = orgOf(ctx);
  const found = await ctx.db
    .selectFrom('assets_label')
    .select('id')
    .where('org_id', '=', org)
    .where('name', '=', name)
    .where('value', '=', value)
    .executeTakeFirst();
  if (found) return found.id;
  const now = new Date().toISOString();
  const id = randomUUID();
  const by = ctx.req.user?.username ?? 'System';
  await ctx.db
    .insertInto('assets_label')
    .values({
      id,
      name,
      value,
      category: 'U',
      is_active: true,
      comment: '',
      org_id: org,
      created_by: by,
      updated_by: by,
      date_created: now,
      date_updated: now,
    })
    .execute();
  return id;
}

/** `[{name, port}]` (or `ssh/22` strings from a spreadsheet); ports 0–65535. */
export async function parseProtocols(v: unknown, ctx: ResourceCtx): Promise<Parsed> {
  const list = typeof v === 'string' ? v.split(/[,，\s]+/).filter(Boolean) : v;
  if (!Array.isArray(list)) return { error: rt(ctx.req.lang, 'not_a_list', { type: typeof v }) };
  const out: { name: string; port: number }[] = [];
  for (const item of list) {
    let name: unknown;
    let port: unknown;
    if (typeof item === 'string') [name, port] = item.split('/');
    else if (item && typeof item === 'object') ({ name, port } = item as { name?: unknown; port?: unknown });
    const n =
      typeof port === 'number' ? port : typeof port === 'string' && /^\d+$/.test(port.trim()) ? Number(port) : NaN;
    if (typeof name !== 'string' || !name.trim()) return { error: rt(ctx.req.lang, 'required') };
    if (!Number.isInteger(n) || n < 0 || n > 65535) return { error: am(ctx.req.lang, 'port_error') };
    out.push({ name: name.trim().toLowerCase(), port: n });
  }
  return { value: out };
}

/** Ids of assets in a node: its subtree, or only its own assets. */
export function assetsUnder(ctx: ResourceCtx, key: string, direct: boolean) {
  const q = ctx.db
    .selectFrom('assets_asset_nodes as an')
    .innerJoin('assets_node as nn', 'nn.id', 'an.node_id')
    .select('an.asset_id');
  return direct ? q.where('nn.key', '=', key) : q.where(inSubtree(nodeDb(ctx), 'nn.key', key));
}
