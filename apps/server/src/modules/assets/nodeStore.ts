import { randomUUID } from 'node:crypto';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { DEFAULT_ORG_ID, ROOT_ORG_ID, SYSTEM_ORG_ID } from '@gatehouse/contract';
import type { Dialect } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { NodeTable } from '../../platform/db/tables/assets.ts';
import type { ResourceCtx } from '../../resource/types.ts';

/**
 * The node tree. A node's `key` is its materialised path (`1:3:2`); a subtree
 * is the node's key plus every key with the prefix `<key>:`, answered from an index on `key`
 * (SQLite GLOB on the binary index, PostgreSQL LIKE on a text_pattern_ops index). Each node keeps
 * `assets_amount`, the distinct assets of its subtree; every change recounts exactly the
 * ancestors of the nodes it touched (at most the depth of the tree, one indexed query each).
 */
export interface NodeDb {
  db: Kysely<DB>;
  dialect: Dialect;
}
export type NodeRow = NodeTable;

export const nodeDb = (ctx: ResourceCtx): NodeDb => ({ db: ctx.db, dialect: ctx.req.server.deps.database.dialect });

/** `ref` is the node's key or one of its descendants' keys. */
export function inSubtree(n: NodeDb, ref: string, key: string): Expression<SqlBool> {
  const r = sql.ref(ref);
  return n.dialect === 'postgres'
    ? sql<SqlBool>`(${r} = ${key} OR ${r} LIKE ${`${key}:%`})`
    : sql<SqlBool>`(${r} = ${key} OR ${r} GLOB ${`${key}:*`})`;
}

/** '1:2:3' → ['1', '1:2', '1:2:3']. */
export function ancestorKeys(key: string): string[] {
  const out: string[] = [];
  for (let i = key.indexOf(':'); i !== -1; i = key.indexOf(':', i + 1)) out.push(key.slice(0, i));
  out.push(key);
  return out;
}

/**
 * The org's root node (key `1` for Default, `2`, `3`… for the others). Organisations get theirs
 * when they are created; orgs older than that get it here on first use.
 */
export async function orgRoot(n: Pick<NodeDb, 'db'>, orgId: string): Promise<NodeRow> {
  const found = await n.db
    .selectFrom('assets_node')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('parent_key', '=', '')
    .executeTakeFirst();
  if (found) return found;
  const org = await n.db.selectFrom('orgs_organization').select('name').where('id', '=', orgId).executeTakeFirst();
  let key = '1';
  if (orgId !== DEFAULT_ORG_ID) {
    const roots = await n.db.selectFrom('assets_node').select('key').where('parent_key', '=', '').execute();
    key = String(Math.max(1, ...roots.map((r) => Number(r.key))) + 1);
  }
  const row: NodeRow = {
    id: randomUUID(),
    key,
    value: org?.name ?? 'Default',
    parent_key: '',
    child_mark: 0,
    assets_amount: 0,
    org_id: orgId,
    date_create: new Date().toISOString(),
  };
  await n.db.insertInto('assets_node').values(row).execute();
  return row;
}

/** Full paths (`/Default/a/b`) of the given keys, from their ancestors' values. */
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

/** Gives every organisation (but the system one) its root node: orgs created before roots came with their org. */
export async function ensureOrgRoots(db: Kysely<DB>): Promise<void> {
  const orgs = await db
    .selectFrom('orgs_organization as o')
    .select('o.id')
    .where('o.id', 'not in', [ROOT_ORG_ID, SYSTEM_ORG_ID])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('assets_node as n')
            .select('n.id')
            .whereRef('n.org_id', '=', 'o.id')
            .where('n.parent_key', '=', ''),
        ),
      ),
    )
    .orderBy('o.date_created')
    .execute();
  for (const o of orgs) await orgRoot({ db }, o.id);
}

/** Keeps an org's root node named after the org (its descendants' full paths follow, being computed). */
export async function renameOrgRoot(n: Pick<NodeDb, 'db'>, orgId: string, name: string): Promise<void> {
  const root = await orgRoot(n, orgId);
  if (root.value !== name)
    await n.db.updateTable('assets_node').set({ value: name }).where('id', '=', root.id).execute();
}

/** Hands out the next child key of a parent (`<parent>:<n>`). */
export async function nextChildKey(n: NodeDb, parentKey: string): Promise<string> {
  await n.db
    .updateTable('assets_node')
    .set((eb) => ({ child_mark: eb('child_mark', '+', 1) }))
    .where('key', '=', parentKey)
    .execute();
  const p = await n.db
    .selectFrom('assets_node')
    .select('child_mark')
    .where('key', '=', parentKey)
    .executeTakeFirstOrThrow();
  return `${parentKey}:${p.child_mark}`;
}

export async function createChild(n: NodeDb, parent: NodeRow, value: string): Promise<NodeRow> {
  const row: NodeRow = {
    id: randomUUID(),
    key: await nextChildKey(n, parent.key),
    value,
    parent_key: parent.key,
    child_mark: 0,
    assets_amount: 0,
    org_id: parent.org_id,
    date_create: new Date().toISOString(),
  };
  await n.db.insertInto('assets_node').values(row).execute();
  return row;
}

export async function childNamed(n: NodeDb, parentKey: string, value: string): Promise<NodeRow | undefined> {
  return n.db
    .selectFrom('assets_node')
    .selectAll()
    .where('parent_key', '=', parentKey)
    .where('value', '=', value)
    .executeTakeFirst();
}

/**
 * The nodes of a full path (`/Default/a/b`, or `a/b` below the org root), created when missing.
 */
export async function ensurePath(n: NodeDb, orgId: string, path: string): Promise<NodeRow> {
  const root = await orgRoot(n, orgId);
  const parts = path
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  if (path.trim().startsWith('/') && parts[0]?.toLowerCase() === root.value.toLowerCase()) parts.shift();
  let node = root;
  for (const part of parts) node = (await childNamed(n, node.key, part)) ?? (await createChild(n, node, part));
  return node;
}

/** Sets `assets_amount` of the given nodes to the distinct assets of their subtrees. */
export async function recount(n: NodeDb, keys: Iterable<string>): Promise<void> {
  for (const key of new Set(keys)) {
    const c = await n.db
      .selectFrom('assets_asset_nodes as an')
      .innerJoin('assets_node as n', 'n.id', 'an.node_id')
      .select((eb) => eb.fn.count<number>('an.asset_id').distinct().as('c'))
      .where(inSubtree(n, 'n.key', key))
      .executeTakeFirstOrThrow();
    await n.db
      .updateTable('assets_node')
      .set({ assets_amount: Number(c.c) })
      .where('key', '=', key)
      .execute();
  }
}

/** Ancestors (inclusive) of the given nodes' keys. */
export async function keysOfNodes(n: NodeDb, nodeIds: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < nodeIds.length; i += 500) {
    const rows = await n.db
      .selectFrom('assets_node')
      .select('key')
      .where('id', 'in', nodeIds.slice(i, i + 500))
      .execute();
    for (const r of rows) for (const k of ancestorKeys(r.key)) out.add(k);
  }
  return out;
}

/** The node ids an asset is in. */
export async function nodesOfAssets(n: NodeDb, assetIds: string[]): Promise<string[]> {
  if (!assetIds.length) return [];
  const rows = await n.db
    .selectFrom('assets_asset_nodes')
    .select('node_id')
    .distinct()
    .where('asset_id', 'in', assetIds)
    .execute();
  return rows.map((r) => r.node_id);
}

/** Recounts every node of an org in one pass (after bulk loads): O(links × depth) in memory. */
export async function recountOrg(n: NodeDb, orgId: string): Promise<void> {
  const nodes = await n.db.selectFrom('assets_node').select(['id', 'key']).where('org_id', '=', orgId).execute();
  const keyOf = new Map(nodes.map((r) => [r.id, r.key]));
  const links = await n.db
    .selectFrom('assets_asset_nodes as an')
    .innerJoin('assets_node as n', 'n.id', 'an.node_id')
    .select(['an.asset_id', 'an.node_id'])
    .where('n.org_id', '=', orgId)
    .orderBy('an.asset_id')
    .execute();
  const counts = new Map<string, number>();
  let current = '';
  let seen = new Set<string>();
  for (const l of links) {
    if (l.asset_id !== current) {
      current = l.asset_id;
      seen = new Set();
    }
    for (const k of ancestorKeys(keyOf.get(l.node_id)!)) {
      if (seen.has(k)) continue;
      seen.add(k);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  await n.db.transaction().execute(async (trx) => {
    for (const r of nodes)
      await trx
        .updateTable('assets_node')
        .set({ assets_amount: counts.get(r.key) ?? 0 })
        .where('id', '=', r.id)
        .execute();
  });
}

/** Moves nodes (with their subtrees) under a new parent; returns the keys whose counts changed. */
export async function moveNodes(n: NodeDb, target: NodeRow, nodes: NodeRow[]): Promise<Set<string>> {
  const touched = new Set<string>(ancestorKeys(target.key));
  for (const node of nodes) {
    if (node.parent_key === target.key) continue;
    for (const k of ancestorKeys(node.parent_key)) touched.add(k);
    const newKey = await nextChildKey(n, target.key);
    const old = node.key;
    const cut = old.length + 1;
    await n.db
      .updateTable('assets_node')
      .set({
        key: sql`${newKey} || substr(key, ${cut})`,
        parent_key: sql`${newKey} || substr(parent_key, ${cut})`,
      })
      .where(
        sql<SqlBool>`key ${sql.raw(n.dialect === 'postgres' ? 'LIKE' : 'GLOB')} ${n.dialect === 'postgres' ? `${old}:%` : `${old}:*`}`,
      )
      .execute();
    await n.db
      .updateTable('assets_node')
      .set({ key: newKey, parent_key: target.key })
      .where('id', '=', node.id)
      .execute();
  }
  touched.delete('');
  return touched;
}
