import { ApiError } from '../../http/errors.ts';
import type { Row } from '../../resource/types.ts';
import { actionsOut } from './actions.ts';
import { grantedAssetIds } from './grants.ts';
import { assetTreeJson, categoryTreeJson, nodeTreeJson, type TreeAsset } from './grantTrees.ts';
import { pm } from './permMessages.ts';
import { permedAccountsOf } from './permedAccounts.ts';
import {
  assetsAt,
  childNodes,
  allNodes,
  directIds,
  favoriteIds,
  nodeByRef,
  orgNames,
  specials,
  treeAssets,
  type Q,
  type Scope,
} from './grantScope.ts';
import { queryFlag } from '../../http/queryString.ts';

/** The tree answers of the grant paths (lazy, category, sync) and the permed accounts of an asset. */
/** `nodes/children-with-assets/tree/`: lazy tree, one level per request. */
export async function childrenWithAssets(s: Scope): Promise<Row[]> {
  const q = s.ctx.req.query as Q;
  const ref = q.key ?? q.id;
  const names = await orgNames(s);
  if (ref === 'favorite' || ref === 'ungrouped') {
    const ids = ref === 'favorite' ? favoriteIds(s) : directIds(s);
    return (await treeAssets(s, ids, undefined, Number.MAX_SAFE_INTEGER)).map((a) => assetTreeJson(a, ref, names));
  }
  if (ref) {
    const node = await nodeByRef(s, ref);
    const children = await childNodes(s, node.key);
    const assets = await treeAssets(s, assetsAt(s, node.key), undefined, Number.MAX_SAFE_INTEGER);
    return [...children.map((n) => nodeTreeJson(n)), ...assets.map((a) => assetTreeJson(a, node.key, names))];
  }
  const top = await childNodes(s, '');
  const out = [...(await specials(s)), ...top.map((n) => nodeTreeJson(n, top.length === 1))];
  if (top.length === 1) {
    const only = top[0]!;
    out.push(...(await childNodes(s, only.key)).map((n) => nodeTreeJson(n)));
    const assets = await treeAssets(s, assetsAt(s, only.key), undefined, Number.MAX_SAFE_INTEGER);
    out.push(...assets.map((a) => assetTreeJson(a, only.key, names)));
  }
  return out;
}

/** `nodes/children-with-assets/category/tree/`: granted assets by category and type. */
export async function categoryTree(s: Scope): Promise<Row[]> {
  const q = s.ctx.req.query as Q;
  const names = await orgNames(s);
  const typePid = (a: TreeAsset) => `ROOT_${a.category.toUpperCase()}_${a.type}`;
  if (q.type) {
    const assets = await s.ctx.db
      .selectFrom('assets_asset as a')
      .select([
        'a.id',
        'a.name',
        'a.address',
        'a.comment',
        'a.is_active',
        'a.type',
        'a.category',
        'a.org_id',
        'a.platform_id',
      ])
      .where('a.id', 'in', grantedAssetIds(s.g, s.grant))
      .where('a.type', '=', q.type)
      .orderBy('a.name')
      .execute();
    return assets.map((a) => assetTreeJson(a, typePid(a), names));
  }
  const rows = await s.ctx.db
    .selectFrom('assets_asset')
    .select(['category', 'type', (eb) => eb.fn.countAll().as('n')])
    .where('id', 'in', grantedAssetIds(s.g, s.grant))
    .groupBy(['category', 'type'])
    .execute();
  const counts = new Map(rows.map((r) => [`${r.category}/${r.type}`, Number(r.n)]));
  const out = await categoryTreeJson(s.ctx.req, counts);
  if (queryFlag(q.sync)) {
    const assets = await treeAssets(s, grantedAssetIds(s.g, s.grant), undefined, Number.MAX_SAFE_INTEGER);
    out.push(...assets.map((a) => assetTreeJson(a, typePid(a), names)));
  }
  return out;
}

/** `nodes/all-with-assets/tree/`: favourites, ungrouped, every granted node and its assets. */
export async function allWithAssets(s: Scope): Promise<Row[]> {
  const names = await orgNames(s);
  const nodes = await allNodes(s);
  const out = [...(await specials(s)), ...nodes.map((n) => nodeTreeJson(n))];
  const keys = new Set(nodes.map((n) => n.key));
  const links = await s.ctx.db
    .selectFrom('assets_asset_nodes as an')
    .innerJoin('assets_node as n', 'n.id', 'an.node_id')
    .select(['an.asset_id', 'n.key'])
    .where('an.asset_id', 'in', grantedAssetIds(s.g, s.grant))
    .execute();
  const assets = new Map(
    (await treeAssets(s, grantedAssetIds(s.g, s.grant), undefined, Number.MAX_SAFE_INTEGER)).map((a) => [a.id, a]),
  );
  for (const l of links) {
    const a = assets.get(l.asset_id);
    if (a && keys.has(l.key)) out.push(assetTreeJson(a, l.key, names));
  }
  return out;
}

export async function permedAccounts(s: Scope, assetId: string): Promise<Row[]> {
  // An asset of another org (or none) is not found, as everywhere else; one not granted has no accounts.
  let q = s.ctx.db.selectFrom('assets_asset').select('id').where('id', '=', assetId);
  if (s.subject.orgId) q = q.where('org_id', '=', s.subject.orgId);
  const found = /^[0-9a-f-]{36}$/i.test(assetId) ? await q.executeTakeFirst() : undefined;
  if (!found) throw new ApiError(404, { detail: pm(s.ctx.req.lang, 'asset_not_found') });
  if (!s.userId) return [];
  const lang = s.ctx.req.lang;
  const list = await permedAccountsOf(s.g, s.userId, assetId, {
    ...(s.subject.orgId ? { orgId: s.subject.orgId } : {}),
    virtualName: (alias) =>
      pm(lang, alias === '@INPUT' ? 'alias_input' : alias === '@USER' ? 'alias_user' : 'alias_anon'),
  });
  return list.map((a) => ({
    id: a.id,
    alias: a.alias,
    name: a.name,
    username: a.username,
    has_username: a.has_username,
    has_secret: a.has_secret,
    secret_type: a.secret_type,
    actions: actionsOut(a.actions, lang),
  }));
}
