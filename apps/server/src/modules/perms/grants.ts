import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { NodeRow } from '../assets/nodeStore.ts';
import { ancestorKeys, inSubtree, type NodeDb } from '../assets/nodeStore.ts';

/**
 * What a user (or a user group) is granted, computed from SQL on every call: no per-user tree is
 * stored, so a change to a permission, a group membership, a node or an asset shows on the next
 * request. Three small indexed reads give the grant (`loadGrant`): the valid permission ids of the
 * subject (direct, and through its groups), the granted node keys reduced to the highest ones
 * (a granted node grants its subtree, a key prefix), and nothing else; asset lists and counts are
 * subqueries on those. See docs/perms.md, "Asset permissions and grants".
 */
export type GrantDb = NodeDb;

export interface Subject {
  userId?: string;
  groupId?: string;
  /** Only permissions of this org (undefined: every org). */
  orgId?: string;
}

export interface Grant {
  permIds: string[];
  /** Granted node keys, none below another (each grants its whole subtree). */
  roots: string[];
  /** Asset-node rows read while answering one request, reused by its later lookups. */
  memo?: { direct?: Pair[]; underRoots?: Pair[] };
}

interface Pair {
  asset_id: string;
  key: string;
}

const inKey = (key: string, within: string | undefined) =>
  within === undefined || key === within || key.startsWith(`${within}:`);

export const nowIso = () => new Date().toISOString();

/** Ids of the permissions in force now: active, started, not expired. */
export function validPermsQuery(db: Kysely<DB>, s: Subject, now = nowIso()) {
  let q = db
    .selectFrom('perms_assetpermission as p')
    .select('p.id')
    .where('p.is_active', '=', true)
    .where('p.date_start', '<=', now)
    .where('p.date_expired', '>', now);
  if (s.orgId) q = q.where('p.org_id', '=', s.orgId);
  const direct = s.userId
    ? db.selectFrom('perms_assetpermission_users').select('assetpermission_id').where('user_id', '=', s.userId)
    : undefined;
  const groups = s.userId
    ? db.selectFrom('users_user_groups').select('usergroup_id').where('user_id', '=', s.userId)
    : undefined;
  const viaGroups = db
    .selectFrom('perms_assetpermission_user_groups')
    .select('assetpermission_id')
    .$if(Boolean(groups), (g) => g.where('usergroup_id', 'in', groups!))
    .$if(!groups, (g) => g.where('usergroup_id', '=', s.groupId ?? ''));
  return q.where((eb) => eb.or([...(direct ? [eb('p.id', 'in', direct)] : []), eb('p.id', 'in', viaGroups)]));
}

/** Keeps the highest keys: `1:2` covers `1:2:5`. */
export function topKeys(keys: Iterable<string>): string[] {
  const sorted = [...new Set(keys)].sort();
  const out: string[] = [];
  for (const k of sorted) if (!out.some((r) => k === r || k.startsWith(`${r}:`))) out.push(k);
  return out;
}

const rootSets = new WeakMap<readonly string[], Set<string>>();

/** `key` is a granted root or below one: one set lookup per ancestor. */
export function coveredBy(roots: readonly string[], key: string): boolean {
  let set = rootSets.get(roots);
  if (!set) rootSets.set(roots, (set = new Set(roots)));
  if (!set.size) return false;
  for (let i = key.indexOf(':'); i !== -1; i = key.indexOf(':', i + 1)) if (set.has(key.slice(0, i))) return true;
  return set.has(key);
}

export async function loadGrant(g: GrantDb, s: Subject, now = nowIso()): Promise<Grant> {
  const permIds = (await validPermsQuery(g.db, s, now).execute()).map((r) => r.id);
  if (!permIds.length) return { permIds, roots: [] };
  const keys = await g.db
    .selectFrom('perms_assetpermission_nodes as pn')
    .innerJoin('assets_node as n', 'n.id', 'pn.node_id')
    .select('n.key')
    .distinct()
    .where('pn.assetpermission_id', 'in', permIds)
    .execute();
  return { permIds, roots: topKeys(keys.map((k) => k.key)) };
}

/** `ref` lies in the subtree of one of `keys` (false for none). */
export function inAnySubtree(g: GrantDb, ref: string, keys: readonly string[]): Expression<SqlBool> {
  if (!keys.length) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(
    keys.map((k) => inSubtree(g, ref, k)),
    sql` OR `,
  )})`;
}

const none = (g: GrantDb) =>
  g.db.selectFrom('assets_asset').select('assets_asset.id as asset_id').where(sql.lit(false));

/** Assets granted directly by the permissions (optionally only those in the subtree of `within`). */
function directAssets(g: GrantDb, grant: Grant, within?: string) {
  let q = g.db
    .selectFrom('perms_assetpermission_assets as pa')
    .select('pa.asset_id')
    .where('pa.assetpermission_id', 'in', grant.permIds);
  if (within)
    q = q.where(
      'pa.asset_id',
      'in',
      g.db
        .selectFrom('assets_asset_nodes as wn')
        .innerJoin('assets_node as wk', 'wk.id', 'wn.node_id')
        .select('wn.asset_id')
        .where(inSubtree(g, 'wk.key', within)),
    );
  return q;
}

/** Granted roots that matter inside `within`: `within` itself when covered, else the roots below it. */
function rootsWithin(grant: Grant, within?: string): string[] {
  if (!within) return grant.roots;
  if (coveredBy(grant.roots, within)) return [within];
  return grant.roots.filter((r) => r.startsWith(`${within}:`));
}

/** The granted asset ids (through nodes and directly), as a subquery; `within` a node key narrows it. */
export function grantedAssetIds(g: GrantDb, grant: Grant, within?: string) {
  if (!grant.permIds.length) return none(g);
  const roots = rootsWithin(grant, within);
  const direct = directAssets(g, grant, within);
  if (!roots.length) return direct;
  const byNode = g.db
    .selectFrom('assets_asset_nodes as an')
    .innerJoin('assets_node as n', 'n.id', 'an.node_id')
    .select('an.asset_id')
    .where(inAnySubtree(g, 'n.key', roots));
  return byNode.union(direct);
}

/** Granted assets linked to the node `key` itself (not its descendants). */
export function grantedAssetIdsAt(g: GrantDb, grant: Grant, key: string) {
  const at = g.db
    .selectFrom('assets_asset_nodes as an')
    .innerJoin('assets_node as n', 'n.id', 'an.node_id')
    .select('an.asset_id')
    .where('n.key', '=', key);
  if (!grant.permIds.length) return none(g);
  if (coveredBy(grant.roots, key)) return at;
  return at.where('an.asset_id', 'in', directAssets(g, grant));
}

export interface GrantedNode extends NodeRow {
  /** Granted assets in the subtree. */
  granted_amount: number;
}

/**
 * The granted tree's nodes (optionally only the children of `parent`, `''` for the top level):
 * every node under a granted root (counts: the stored subtree count, as all of it is granted),
 * and the ancestors of granted roots and of directly granted assets' nodes (counts: the distinct
 * granted assets below, aggregated from the asset-node rows of the granted parts). With
 * `ungroupDirect`, directly granted assets stay out of the tree (they show under "Ungrouped").
 */
export async function grantedNodes(
  g: GrantDb,
  grant: Grant,
  opts: { parent?: string; orgId?: string; ungroupDirect?: boolean } = {},
): Promise<GrantedNode[]> {
  if (!grant.permIds.length) return [];
  const { parent } = opts;
  const within = parent || undefined;
  const roots = rootsWithin(grant, within);
  const depth = (k: string) => k.split(':').length;
  const isChild = (k: string) =>
    parent === undefined ||
    (parent === '' ? depth(k) === 1 : k.startsWith(`${parent}:`) && depth(k) === depth(parent) + 1);
  const nodesQ = () => {
    let q = g.db.selectFrom('assets_node').selectAll();
    if (opts.orgId) q = q.where('org_id', '=', opts.orgId);
    return q;
  };
  const stored = (rows: NodeRow[]) => rows.map((n) => ({ ...n, granted_amount: Number(n.assets_amount) }));
  if (within !== undefined && coveredBy(grant.roots, within))
    return stored(await nodesQ().where('parent_key', '=', within).orderBy('value').execute());
  const full: NodeRow[] = [];
  // Children of a partial parent: only granted roots can be fully granted children.
  const fullChildren = parent !== undefined ? roots.filter(isChild) : roots;
  if (fullChildren.length)
    full.push(
      ...(parent !== undefined
        ? await nodesQ().where('key', 'in', fullChildren).execute()
        : await nodesQ()
            .where(inAnySubtree(g, 'key', roots))
            .execute()),
    );
  // Directly granted assets' nodes (in scope) and their ancestors, plus the granted roots' ancestors.
  const memo = (grant.memo ??= {});
  if (!opts.ungroupDirect && !memo.direct)
    memo.direct = await g.db
      .selectFrom('assets_asset_nodes as an')
      .innerJoin('assets_node as n', 'n.id', 'an.node_id')
      .select(['an.asset_id', 'n.key'])
      .where('an.asset_id', 'in', directAssets(g, grant))
      .execute();
  const directPairs = opts.ungroupDirect ? [] : memo.direct!.filter((p) => inKey(p.key, within));
  const partial = new Set<string>();
  const addAncestors = (key: string) => {
    for (const a of ancestorKeys(key)) if (!coveredBy(grant.roots, a) && isChild(a)) partial.add(a);
  };
  for (const r of roots) addAncestors(r);
  for (const p of directPairs) addAncestors(p.key);
  if (!partial.size) return stored(full);
  // Distinct granted assets under each partial node: the rows of the granted roots below it and
  // the directly granted assets' rows.
  const rootsBelow = roots.filter((r) => ancestorKeys(r).some((a) => a !== r && partial.has(a)));
  let rootPairs: Pair[] = [];
  if (rootsBelow.length && memo.underRoots) rootPairs = memo.underRoots.filter((p) => inKey(p.key, within));
  else if (rootsBelow.length) {
    rootPairs = await g.db
      .selectFrom('assets_node as n')
      .innerJoin('assets_asset_nodes as an', 'an.node_id', 'n.id')
      .select(['an.asset_id', 'n.key'])
      .where(inAnySubtree(g, 'n.key', within === undefined ? grant.roots : rootsBelow))
      .execute();
    // Read for the whole grant (the top level): later levels of the same request filter it.
    if (within === undefined) memo.underRoots = rootPairs;
  }
  const sets = new Map<string, Set<string>>([...partial].map((k) => [k, new Set<string>()]));
  // Many assets share a node: find the partial ancestors of each node key once.
  const targets = new Map<string, Set<string>[]>();
  const count = (p: Pair) => {
    let into = targets.get(p.key);
    if (!into) {
      into = ancestorKeys(p.key).flatMap((a) => sets.get(a) ?? []);
      targets.set(p.key, into);
    }
    for (const set of into) set.add(p.asset_id);
  };
  rootPairs.forEach(count);
  directPairs.forEach(count);
  const partialRows = await nodesQ()
    .where('key', 'in', [...partial])
    .execute();
  return [...partialRows.map((n) => ({ ...n, granted_amount: sets.get(n.key)?.size ?? 0 })), ...stored(full)];
}

/** Whether the asset is granted to the subject now. */
export async function isAssetGranted(g: GrantDb, grant: Grant, assetId: string): Promise<boolean> {
  if (!grant.permIds.length) return false;
  const row = await g.db
    .selectFrom('assets_asset')
    .select('id')
    .where('id', '=', assetId)
    .where('id', 'in', grantedAssetIds(g, grant))
    .executeTakeFirst();
  return Boolean(row);
}

/** The valid permissions of the subject that cover the asset, directly or through an ancestor node. */
export async function permsCoveringAsset(g: GrantDb, s: Subject, assetId: string, now = nowIso()) {
  const keys = await g.db
    .selectFrom('assets_asset_nodes as an')
    .innerJoin('assets_node as n', 'n.id', 'an.node_id')
    .select('n.key')
    .where('an.asset_id', '=', assetId)
    .execute();
  const ancestors = [...new Set(keys.flatMap((k) => ancestorKeys(k.key)))];
  const valid = (await validPermsQuery(g.db, s, now).execute()).map((r) => r.id);
  if (!valid.length) return [];
  return g.db
    .selectFrom('perms_assetpermission as p')
    .select(['p.id', 'p.accounts', 'p.actions', 'p.date_expired'])
    .where('p.id', 'in', valid)
    .where((eb) =>
      eb.or([
        eb(
          'p.id',
          'in',
          eb.selectFrom('perms_assetpermission_assets').select('assetpermission_id').where('asset_id', '=', assetId),
        ),
        ...(ancestors.length
          ? [
              eb(
                'p.id',
                'in',
                eb
                  .selectFrom('perms_assetpermission_nodes as pn')
                  .innerJoin('assets_node as an2', 'an2.id', 'pn.node_id')
                  .select('pn.assetpermission_id')
                  .where('an2.key', 'in', ancestors),
              ),
            ]
          : []),
      ]),
    )
    .execute();
}
