import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { containsCi, listQuery, pageOf, type Query } from '../../resource/query.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { serializeRows } from '../../resource/serialize.ts';
import type { AnyQuery, ResourceCtx, Row } from '../../resource/types.ts';
import { assetResource, ASSET_KINDS } from '../assets/assetResource.ts';
import { nodeDb } from '../assets/nodeStore.ts';
import { actionsOut } from './actions.ts';
import {
  coveredBy,
  grantedAssetIds,
  grantedAssetIdsAt,
  grantedNodes,
  loadGrant,
  type Grant,
  type GrantDb,
  type Subject,
} from './grants.ts';
import {
  assetTreeJson,
  categoryTreeJson,
  nodePermedJson,
  nodeTreeJson,
  specialNodeJson,
  type TreeAsset,
} from './grantTrees.ts';
import { pm } from './permMessages.ts';
import { permedAccountsOf } from './permedAccounts.ts';

/**
 * What a user (`/api/v1/perms/users/{self|my|<id>}/...`) or a user group
 * (`/api/v1/perms/user-groups/<id>/...`) is granted. Every answer is computed from the current
 * rows (grants.ts): nothing to rebuild, nothing stale. `self`/`my` are the caller
 * (`perms.view_myassets`); another user needs `perms.view_userassets` and must be a member of the
 * request's org; a group needs `perms.view_usergroupassets` and must belong to the org.
 */
type Q = Record<string, string | undefined>;
type Req = FastifyRequest<{ Params: Record<string, string> }>;
const allAssets = assetResource(ASSET_KINDS[0]!);
const PERMED_FIELDS = [
  'id',
  'name',
  'address',
  'domain',
  'platform',
  'comment',
  'is_active',
  'date_verified',
  'created_by',
  'date_created',
  'connectivity',
  'nodes',
  'labels',
  'protocols',
  'category',
  'type',
];
const SEARCH_CAP = 999;

interface Scope {
  g: GrantDb;
  ctx: ResourceCtx;
  subject: Subject;
  grant: Grant;
  /** The user's id when the subject is a user (favourites). */
  userId?: string;
  ungroup: boolean;
}

const orgOf = (req: FastifyRequest) => (req.org.id === ROOT_ORG_ID ? undefined : req.org.id);

async function selfSubject(req: Req): Promise<Subject> {
  const org = orgOf(req);
  return { userId: req.user!.id, ...(org ? { orgId: org } : {}) };
}

async function userSubject(req: Req): Promise<Subject> {
  const ref = req.params.user!;
  let q = req.db.selectFrom('users_user').select('id').where('id', '=', ref);
  const org = orgOf(req);
  // Membership of this one user: an index lookup by user id, not the org's member list.
  if (org)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('rbac_rolebinding as rb')
          .select('rb.id')
          .whereRef('rb.user_id', '=', 'users_user.id')
          .where('rb.scope', '=', 'org')
          .where('rb.org_id', '=', org),
      ),
    );
  const user = /^[0-9a-f-]{36}$/i.test(ref) ? await q.executeTakeFirst() : undefined;
  if (!user) throw new ApiError(404, { detail: pm(req.lang, 'user_not_found') });
  return { userId: user.id, ...(org ? { orgId: org } : {}) };
}

async function groupSubject(req: Req): Promise<Subject> {
  const ref = req.params.group!;
  let q = req.db.selectFrom('users_usergroup').select(['id', 'org_id']).where('id', '=', ref);
  const org = orgOf(req);
  if (org) q = q.where('org_id', '=', org);
  const group = /^[0-9a-f-]{36}$/i.test(ref) ? await q.executeTakeFirst() : undefined;
  if (!group) throw new ApiError(404, { detail: pm(req.lang, 'group_not_found') });
  return { groupId: group.id, orgId: group.org_id };
}

async function scopeOf(req: Req, subject: Subject, needGrant = true): Promise<Scope> {
  const ctx = { req, db: req.db };
  const g = nodeDb(ctx);
  return {
    g,
    ctx,
    subject,
    grant: needGrant ? await loadGrant(g, subject) : { permIds: [], roots: [] },
    ...(subject.userId ? { userId: subject.userId } : {}),
    ungroup: Boolean(await req.server.deps.settings.get('PERM_SINGLE_ASSET_TO_UNGROUP_NODE')),
  };
}

/** A node named by id or key (or `favorite` / `ungrouped`), in the subject's org. */
async function nodeByRef(s: Scope, ref: string) {
  let q = s.ctx.db.selectFrom('assets_node').selectAll();
  if (s.subject.orgId) q = q.where('org_id', '=', s.subject.orgId);
  const node = await q.where((eb) => eb.or([eb('id', '=', ref), eb('key', '=', ref)])).executeTakeFirst();
  if (!node) throw new ApiError(404, { detail: pm(s.ctx.req.lang, 'node_not_found') });
  return node;
}

/** Asset ids of the subject's favourites that are granted. */
function favoriteIds(s: Scope) {
  return s.ctx.db
    .selectFrom('assets_favoriteasset')
    .select('asset_id')
    .where('user_id', '=', s.userId ?? '')
    .where('asset_id', 'in', grantedAssetIds(s.g, s.grant));
}

function directIds(s: Scope) {
  return s.ctx.db
    .selectFrom('perms_assetpermission_assets')
    .select('asset_id')
    .where('assetpermission_id', 'in', s.grant.permIds.length ? s.grant.permIds : ['']);
}

type IdSource = ReturnType<typeof grantedAssetIds> | ReturnType<typeof favoriteIds> | ReturnType<typeof directIds>;

/** AssetPermedSerializer rows of assets among `ids`, with the asset list's filters, search, order and pages. */
async function assetList(s: Scope, ids: IdSource) {
  const { ctx } = s;
  const query = { ...(ctx.req.query as Query) };
  delete query.node_id;
  const q = (await listQuery(allAssets, ctx, query)).where('assets_asset.id', 'in', ids) as AnyQuery;
  const page = pageOf(query);
  if (!page) return serializeRows(allAssets, ctx, (await q.execute()) as Row[], PERMED_FIELDS);
  const count = Number(
    (
      (await q
        .clearSelect()
        .clearOrderBy()
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()) as Row
    ).n,
  );
  const rows = (await q.limit(page.limit).offset(page.offset).execute()) as Row[];
  return pageOfResults(ctx.req, page, count, await serializeRows(allAssets, ctx, rows, PERMED_FIELDS));
}

async function treeAssets(s: Scope, ids: IdSource, search?: string, cap = SEARCH_CAP): Promise<TreeAsset[]> {
  let q = s.ctx.db
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
    .where('a.id', 'in', ids)
    .orderBy('a.name');
  if (search) q = q.where((eb) => eb.or([containsCi(s.ctx, 'a.name', search), containsCi(s.ctx, 'a.address', search)]));
  const query = s.ctx.req.query as Q;
  for (const c of ['id', 'name', 'address', 'comment'] as const) if (query[c]) q = q.where(`a.${c}`, '=', query[c]!);
  return q.limit(cap).execute();
}

async function orgNames(s: Scope): Promise<Map<string, string>> {
  const rows = await s.ctx.db.selectFrom('orgs_organization').select(['id', 'name']).execute();
  return new Map(rows.map((o) => [o.id, o.name]));
}

async function countOf(s: Scope, ids: IdSource): Promise<number> {
  const r = await s.ctx.db
    .selectFrom('assets_asset')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The granted children of `key` ('' = the top level), ordered by name. */
async function childNodes(s: Scope, key: string) {
  const nodes = await grantedNodes(s.g, s.grant, {
    parent: key,
    ...(s.subject.orgId ? { orgId: s.subject.orgId } : {}),
    ungroupDirect: s.ungroup,
  });
  return nodes.sort((a, b) => a.value.localeCompare(b.value) || a.key.localeCompare(b.key));
}

async function allNodes(s: Scope) {
  const nodes = await grantedNodes(s.g, s.grant, {
    ...(s.subject.orgId ? { orgId: s.subject.orgId } : {}),
    ungroupDirect: s.ungroup,
  });
  const parts = new Map(nodes.map((x) => [x.key, x.key.split(':').map(Number)]));
  return nodes.sort((a, b) => {
    const pa = parts.get(a.key)!;
    const pb = parts.get(b.key)!;
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
    return pa.length - pb.length;
  });
}

/** Granted assets linked to the node itself; in ungrouped mode only those granted through nodes. */
function assetsAt(s: Scope, key: string) {
  const none = s.ungroup && !coveredBy(s.grant.roots, key);
  return grantedAssetIdsAt(s.g, none ? { permIds: [], roots: [] } : s.grant, key);
}

async function specials(s: Scope): Promise<Row[]> {
  const out: Row[] = [];
  if (s.userId) out.push(specialNodeJson(s.ctx.req, 'favorite', await countOf(s, favoriteIds(s))));
  if (s.ungroup) out.push(specialNodeJson(s.ctx.req, 'ungrouped', await countOf(s, directIds(s))));
  return out;
}

/** `nodes/children-with-assets/tree/`: lazy tree, one level per request. */
async function childrenWithAssets(s: Scope): Promise<Row[]> {
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
async function categoryTree(s: Scope): Promise<Row[]> {
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
  if (q.sync === '1' || q.sync === 'true') {
    const assets = await treeAssets(s, grantedAssetIds(s.g, s.grant), undefined, Number.MAX_SAFE_INTEGER);
    out.push(...assets.map((a) => assetTreeJson(a, typePid(a), names)));
  }
  return out;
}

/** `nodes/all-with-assets/tree/`: favourites, ungrouped, every granted node and its assets. */
async function allWithAssets(s: Scope): Promise<Row[]> {
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

async function permedAccounts(s: Scope, assetId: string): Promise<Row[]> {
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

type Handler = (s: Scope, req: Req) => Promise<unknown>;

/** Every path under a user's prefix, with the handler of each. */
const USER_PATHS: [suffix: string, handler: Handler][] = [
  [
    'assets/',
    (s, req) => {
      const node = (req.query as Q).node_id;
      if (!node) return assetList(s, grantedAssetIds(s.g, s.grant));
      return nodeByRef(s, node).then((n) => assetList(s, grantedAssetIds(s.g, s.grant, n.key)));
    },
  ],
  ['nodes/ungrouped/assets/', (s) => assetList(s, directIds(s))],
  ['nodes/favorite/assets/', (s) => assetList(s, favoriteIds(s))],
  [
    'nodes/:node_id/assets/',
    async (s, req) => {
      const node = await nodeByRef(s, req.params.node_id!);
      return assetList(s, grantedAssetIds(s.g, s.grant, node.key));
    },
  ],
  ['nodes/', async (s) => (await allNodes(s)).map(nodePermedJson)],
  [
    'nodes/children/',
    async (s, req) => {
      const ref = (req.query as Q).key ?? (req.query as Q).id;
      const key = ref ? (await nodeByRef(s, ref)).key : '';
      return (await childNodes(s, key)).map(nodePermedJson);
    },
  ],
  [
    'assets/tree/',
    async (s, req) => {
      const names = await orgNames(s);
      const search = (req.query as Q).search;
      const assets = await treeAssets(
        s,
        grantedAssetIds(s.g, s.grant),
        search,
        search ? SEARCH_CAP : Number.MAX_SAFE_INTEGER,
      );
      return assets.map((a) => assetTreeJson(a, '', names));
    },
  ],
  [
    'ungroup/assets/tree/',
    async (s) => {
      if (!s.ungroup) return [];
      const names = await orgNames(s);
      return (await treeAssets(s, directIds(s), undefined, Number.MAX_SAFE_INTEGER)).map((a) =>
        assetTreeJson(a, 'ungrouped', names),
      );
    },
  ],
  ['nodes/tree/', async (s) => (await allNodes(s)).map((n) => nodeTreeJson(n))],
  [
    'nodes/children/tree/',
    async (s, req) => {
      const ref = (req.query as Q).key ?? (req.query as Q).id;
      const key = ref ? (await nodeByRef(s, ref)).key : '';
      return (await childNodes(s, key)).map((n) => nodeTreeJson(n));
    },
  ],
  ['nodes/children-with-assets/tree/', (s) => childrenWithAssets(s)],
  ['nodes/children-with-assets/category/tree/', (s) => categoryTree(s)],
  ['nodes/all-with-assets/tree/', (s) => allWithAssets(s)],
  ['assets/:asset_id/accounts/', (s, req) => permedAccounts(s, req.params.asset_id!)],
];

/** Paths that ask about one asset and need no granted tree. */
const ONE_ASSET = new Set(['assets/:asset_id/accounts/']);

/** The paths the contract gives user groups. */
const GROUP_PATHS = new Set(['assets/', 'nodes/', 'nodes/children/', 'nodes/children/tree/', 'nodes/:node_id/assets/']);

export function registerUserGrantRoutes(app: FastifyInstance): void {
  const prefixes: [string, string, (req: Req) => Promise<Subject>][] = [
    ['/api/v1/perms/users/self/', 'perms.view_myassets', selfSubject],
    ['/api/v1/perms/users/my/', 'perms.view_myassets', selfSubject],
    ['/api/v1/perms/users/:user/', 'perms.view_userassets', userSubject],
  ];
  for (const [prefix, perm, subject] of prefixes)
    for (const [suffix, handler] of USER_PATHS)
      app.get(`${prefix}${suffix}`, { config: { perm } }, async (req: Req) =>
        handler(await scopeOf(req, await subject(req), !ONE_ASSET.has(suffix)), req),
      );
  for (const [suffix, handler] of USER_PATHS.filter(([sfx]) => GROUP_PATHS.has(sfx)))
    app.get(
      `/api/v1/perms/user-groups/:group/${suffix}`,
      { config: { perm: 'perms.view_usergroupassets' } },
      async (req: Req) => handler(await scopeOf(req, await groupSubject(req)), req),
    );
}
