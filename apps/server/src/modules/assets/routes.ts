import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../resource/routes.ts';
import { ASSET_KINDS, assetResource } from './assetResource.ts';
import { registerAssetRelationRoutes } from './assetRelationRoutes.ts';
import { registerCategoryRoutes } from './categoryRoutes.ts';
import { registerCategoryTreeRoutes } from './categoryTreeRoutes.ts';
import { domainResource, labelResource } from './domainLabelResources.ts';
import { registerFavoriteRoutes } from './favoriteRoutes.ts';
import { nodeResource } from './nodeResource.ts';
import { registerNodeTreeRoutes } from './nodeTreeRoutes.ts';
import { platformResource } from './platformResource.ts';
import { registerSuggestionRoutes } from './suggestionRoutes.ts';
import { registerAssetTaskRoutes } from './taskRoutes.ts';
import { onOrgLifecycle } from '../orgs/orgLifecycle.ts';
import { ensureOrgRoots, nodeDb, orgRoot, renameOrgRoot } from './nodeStore.ts';

/** The assets module (issue 7): platforms, assets of every category, nodes, domains, labels, favourites, tasks. */
export function registerAssetsModule(app: FastifyInstance): void {
  registerCategoryRoutes(app);
  registerResource(app, platformResource);
  registerAssetTaskRoutes(app);
  registerAssetRelationRoutes(app);
  registerNodeTreeRoutes(app);
  registerCategoryTreeRoutes(app);
  registerSuggestionRoutes(app);
  registerFavoriteRoutes(app);
  for (const kind of ASSET_KINDS) registerResource(app, assetResource(kind));
  registerResource(app, nodeResource);
  registerResource(app, domainResource);
  registerResource(app, labelResource);
  // An organisation has its root node, named after it, from birth; only the root can be left
  // when an org is deleted (other nodes keep it from being deleted), and it goes with its org.
  onOrgLifecycle(app, {
    created: async (ctx, orgId) => void (await orgRoot(nodeDb(ctx), orgId)),
    renamed: (ctx, orgId, name) => renameOrgRoot(nodeDb(ctx), orgId, name),
    deleted: async (ctx, orgIds) =>
      void (await ctx.db.deleteFrom('assets_node').where('org_id', 'in', orgIds).execute()),
  });
  // Orgs created before roots were made at birth get theirs at start-up.
  app.addHook('onReady', () => ensureOrgRoots(app.deps.database.db));
}
