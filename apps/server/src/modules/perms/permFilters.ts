import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { parseBool } from '../../resource/coerce.ts';
import type { AnyQuery, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { ancestorKeys } from '../assets/nodeStore.ts';

/**
 * The list filters of asset permissions. `all` (default on) makes the user, node and asset
 * filters include what is inherited: a user's groups' permissions, and permissions on the
 * ancestors of a node or of an asset's nodes.
 */
const T = 'perms_assetpermission';
const id = sql.ref(`${T}.id`);
const nothing = (q: AnyQuery) => q.where(sql.lit(false));

function inherit(ctx: ResourceCtx): boolean {
  const raw = (ctx.req.query as Record<string, unknown>).all;
  return raw === undefined || raw === '' || parseBool(raw) !== false;
}

const inOrg = <Q extends { where: (...a: never[]) => unknown }>(ctx: ResourceCtx, q: Q, col: string): Q =>
  ctx.req.org.id === ROOT_ORG_ID
    ? q
    : ((q.where as (c: string, o: string, v: string) => Q)(col, '=', ctx.req.org.id) as Q);

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function byUsers(q: AnyQuery, ctx: ResourceCtx, userIds: string[]): Promise<AnyQuery> {
  if (!userIds.length) return nothing(q);
  const direct = ctx.db
    .selectFrom('perms_assetpermission_users')
    .select('assetpermission_id')
    .where('user_id', 'in', userIds);
  if (!inherit(ctx)) return q.where(id, 'in', direct);
  const groups = ctx.db
    .selectFrom('perms_assetpermission_user_groups as pg')
    .innerJoin('users_user_groups as ug', 'ug.usergroup_id', 'pg.usergroup_id')
    .select('pg.assetpermission_id')
    .where('ug.user_id', 'in', userIds);
  return q.where((eb) => eb.or([eb(id, 'in', direct), eb(id, 'in', groups)]));
}

function byGroups(q: AnyQuery, ctx: ResourceCtx, groupIds: string[]): AnyQuery {
  if (!groupIds.length) return nothing(q);
  return q.where(
    id,
    'in',
    ctx.db
      .selectFrom('perms_assetpermission_user_groups')
      .select('assetpermission_id')
      .where('usergroup_id', 'in', groupIds),
  );
}

/** Permissions on these nodes (and, with `all`, on their ancestors). */
async function byNodeKeys(q: AnyQuery, ctx: ResourceCtx, keys: string[]): Promise<AnyQuery> {
  const wanted = inherit(ctx) ? [...new Set(keys.flatMap(ancestorKeys))] : keys;
  if (!wanted.length) return nothing(q);
  return q.where(
    id,
    'in',
    ctx.db
      .selectFrom('perms_assetpermission_nodes as pn')
      .innerJoin('assets_node as n', 'n.id', 'pn.node_id')
      .select('pn.assetpermission_id')
      .where('n.key', 'in', wanted),
  );
}

async function byAssets(q: AnyQuery, ctx: ResourceCtx, assetIds: string[]): Promise<AnyQuery> {
  if (!assetIds.length) return nothing(q);
  const direct = ctx.db
    .selectFrom('perms_assetpermission_assets')
    .select('assetpermission_id')
    .where('asset_id', 'in', assetIds);
  if (!inherit(ctx)) return q.where(id, 'in', direct);
  const keys = (
    await ctx.db
      .selectFrom('assets_asset_nodes as an')
      .innerJoin('assets_node as n', 'n.id', 'an.node_id')
      .select('n.key')
      .where('an.asset_id', 'in', assetIds)
      .execute()
  ).map((r) => r.key);
  const ancestors = [...new Set(keys.flatMap(ancestorKeys))];
  if (!ancestors.length) return q.where(id, 'in', direct);
  const viaNodes = ctx.db
    .selectFrom('perms_assetpermission_nodes as pn')
    .innerJoin('assets_node as n', 'n.id', 'pn.node_id')
    .select('pn.assetpermission_id')
    .where('n.key', 'in', ancestors);
  return q.where((eb) => eb.or([eb(id, 'in', direct), eb(id, 'in', viaNodes)]));
}

async function assetIdsWhere(ctx: ResourceCtx, col: 'id' | 'name' | 'address', value: string): Promise<string[]> {
  const rows = await inOrg(ctx, ctx.db.selectFrom('assets_asset').select('id').where(col, '=', value), 'org_id')
    .limit(1000)
    .execute();
  return rows.map((r) => r.id);
}

async function nodeKeysWhere(ctx: ResourceCtx, col: 'id' | 'value', value: string): Promise<string[]> {
  const rows = await inOrg(
    ctx,
    ctx.db
      .selectFrom('assets_node')
      .select('key')
      .where((eb) => (col === 'id' ? eb.or([eb('id', '=', value), eb('key', '=', value)]) : eb('value', '=', value))),
    'org_id',
  )
    .limit(1000)
    .execute();
  return rows.map((r) => r.key);
}

/** In force now: active, started, not expired. */
export function validNow(q: AnyQuery, valid: boolean): AnyQuery {
  const now = new Date().toISOString();
  const ref = (c: string) => sql.ref(`${T}.${c}`);
  return valid
    ? q.where(ref('is_active'), '=', true).where(ref('date_start'), '<=', now).where(ref('date_expired'), '>', now)
    : q.where((eb) =>
        eb.or([eb(ref('is_active'), '=', false), eb(ref('date_start'), '>', now), eb(ref('date_expired'), '<=', now)]),
      );
}

function hasLinks(ctx: ResourceCtx, tables: ('users' | 'user_groups' | 'assets' | 'nodes')[]) {
  return (q: AnyQuery) =>
    q.where((eb) =>
      eb.or(
        tables.map((t) => eb(id, 'in', ctx.db.selectFrom(`perms_assetpermission_${t}`).select('assetpermission_id'))),
      ),
    );
}

export const PERM_FILTERS: NonNullable<ResourceDef['extraFilters']> = {
  user_id: (q, v, ctx) => byUsers(q, ctx, list(v)),
  username: async (q, v, ctx) =>
    byUsers(
      q,
      ctx,
      (await ctx.db.selectFrom('users_user').select('id').where('username', '=', v).execute()).map((r) => r.id),
    ),
  user_group_id: (q, v, ctx) => byGroups(q, ctx, list(v)),
  user_group: async (q, v, ctx) =>
    byGroups(
      q,
      ctx,
      (
        await inOrg(
          ctx,
          ctx.db
            .selectFrom('users_usergroup')
            .select('id')
            .where((eb) => eb.or([eb('id', '=', v), eb('name', '=', v)])),
          'org_id',
        ).execute()
      ).map((r) => r.id),
    ),
  node_id: async (q, v, ctx) => byNodeKeys(q, ctx, await nodeKeysWhere(ctx, 'id', v)),
  node_name: async (q, v, ctx) => byNodeKeys(q, ctx, await nodeKeysWhere(ctx, 'value', v)),
  asset_id: async (q, v, ctx) => byAssets(q, ctx, await assetIdsWhere(ctx, 'id', v)),
  asset_name: async (q, v, ctx) => byAssets(q, ctx, await assetIdsWhere(ctx, 'name', v)),
  address: async (q, v, ctx) => byAssets(q, ctx, await assetIdsWhere(ctx, 'address', v)),
  ip: async (q, v, ctx) => byAssets(q, ctx, await assetIdsWhere(ctx, 'address', v)),
  // A comma list: permissions naming one of these accounts, or @ALL.
  accounts: (q, v) =>
    q.where((eb) =>
      eb.or(
        [...list(v), '@ALL'].map((a) =>
          eb(sql.ref(`${T}.accounts`), 'like', `%${JSON.stringify(a).replace(/[%\\]/g, '')}%`),
        ),
      ),
    ),
  is_valid: (q, v) => {
    const b = parseBool(v);
    return b === undefined ? q : validNow(q, b);
  },
  // In force and pointing from someone to something.
  is_effective: (q, v, ctx) => {
    const b = parseBool(v);
    if (b === undefined) return q;
    const effective = (x: AnyQuery) =>
      hasLinks(ctx, ['assets', 'nodes'])(hasLinks(ctx, ['users', 'user_groups'])(validNow(x, true)));
    if (b) return effective(q);
    const ids = effective(ctx.db.selectFrom(T).select(`${T}.id`) as unknown as AnyQuery);
    return q.where(id, 'not in', ids);
  },
  // Read by the filters above; on its own it narrows nothing.
  all: (q) => q,
};
