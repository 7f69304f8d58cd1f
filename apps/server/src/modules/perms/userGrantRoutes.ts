import type { FastifyInstance } from 'fastify';
import { grantedAssetIds, type Subject } from './grants.ts';
import { assetTreeJson, nodePermedJson, nodeTreeJson } from './grantTrees.ts';
import {
  allNodes,
  assetList,
  childNodes,
  directIds,
  favoriteIds,
  groupSubject,
  nodeByRef,
  orgNames,
  PERMED_ASSETS,
  scopeOf,
  selfSubject,
  SEARCH_CAP,
  treeAssets,
  userSubject,
  type Q,
  type Req,
  type Scope,
} from './grantScope.ts';
import { allWithAssets, categoryTree, childrenWithAssets, permedAccounts } from './grantTreeHandlers.ts';
import { shape, treeNodes } from '../../resource/describe.ts';
import type { Described } from '../../resource/routeMetadata.ts';

/**
 * What a user (`/api/v1/perms/users/{self|my|<id>}/...`) or a user group
 * (`/api/v1/perms/user-groups/<id>/...`) is granted. Every answer is computed from the current
 * rows (grants.ts): nothing to rebuild, nothing stale. `self`/`my` are the caller
 * (`perms.view_myassets`); another user needs `perms.view_userassets` and must be a member of the
 * request's org; a group needs `perms.view_usergroupassets` and must belong to the org.
 */
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

/** What each path answers, for its OPTIONS: trees of nodes, granted nodes, accounts, or granted assets. */
const NODES = shape('node', { id: 'string', name: 'string', key: 'string', value: 'string', assets_amount: 'integer' });
const ACCOUNTS = shape('account', {
  id: 'string',
  alias: 'string',
  name: 'string',
  username: 'string',
  has_username: 'boolean',
  has_secret: 'boolean',
  secret_type: 'labeled_choice',
  actions: 'list',
});
function describeOf(suffix: string): Described {
  if (suffix.endsWith('tree/')) return treeNodes;
  if (suffix.endsWith('accounts/')) return ACCOUNTS;
  if (suffix === 'nodes/' || suffix === 'nodes/children/') return NODES;
  return PERMED_ASSETS;
}

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
      app.get(`${prefix}${suffix}`, { config: { perm, describe: describeOf(suffix) } }, async (req: Req) =>
        handler(await scopeOf(req, await subject(req), !ONE_ASSET.has(suffix)), req),
      );
  for (const [suffix, handler] of USER_PATHS.filter(([sfx]) => GROUP_PATHS.has(sfx)))
    app.get(
      `/api/v1/perms/user-groups/:group/${suffix}`,
      { config: { perm: 'perms.view_usergroupassets', describe: describeOf(suffix) } },
      async (req: Req) => handler(await scopeOf(req, await groupSubject(req)), req),
    );
}
