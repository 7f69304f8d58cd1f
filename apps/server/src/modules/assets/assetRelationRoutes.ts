import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../http/messages.ts';
import { ApiError } from '../../http/errors.ts';
import { findVisible, permFor } from '../../resource/routes.ts';
import { listQuery } from '../../resource/query.ts';
import { pageOf } from '../../resource/query.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { outputFields, serializeOne, serializeRows } from '../../resource/serialize.ts';
import type { ResourceCtx, Row } from '../../resource/types.ts';
import { ASSET_KINDS, assetResource } from './assetResource.ts';
import { platformResource } from './platformResource.ts';
import { start, visibleAssetIds } from './taskRoutes.ts';

/**
 * Routes of one asset: `<list>/<id>/platform/` (its platform),
 * `<list>/<id>/gateways/` (the gateways of its domain, paginated) and
 * `gateways/<id>/test-connective/` (a gateway's connectivity test, as a task).
 */
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });
const GATEWAYS = assetResource(ASSET_KINDS.find((k) => k.model === 'gateway')!);

export function registerAssetRelationRoutes(app: FastifyInstance): void {
  for (const kind of ASSET_KINDS) {
    const def = assetResource(kind);
    const view = permFor(def, 'retrieve');
    app.get<{ Params: { id: string } }>(
      `${kind.url}:id/platform/`,
      { config: { perm: [view, 'assets.view_platform'], describe: platformResource } },
      async (req) => {
        const ctx = ctxOf(req);
        const asset = await findVisible(def, ctx, req.params.id);
        const platform = await findVisible(platformResource, ctx, String(asset.platform_id));
        return serializeOne(platformResource, ctx, platform);
      },
    );
    app.get<{ Params: { id: string } }>(
      `${kind.url}:id/gateways/`,
      { config: { perm: [view, 'assets.view_gateway'], describe: GATEWAYS } },
      async (req) => {
        const ctx = ctxOf(req);
        const asset = await findVisible(def, ctx, req.params.id);
        const query = { ...(req.query as Record<string, string>), domain: String(asset.domain_id ?? '') };
        const page = pageOf(query) ?? { limit: 15, offset: 0 };
        if (!asset.domain_id) return pageOfResults(req, page, 0, []);
        const all = (await (await listQuery(GATEWAYS, ctx, query)).execute()) as Row[];
        const rows = all.slice(page.offset, page.offset + page.limit);
        return pageOfResults(
          req,
          page,
          all.length,
          await serializeRows(GATEWAYS, ctx, rows, outputFields(GATEWAYS, query)),
        );
      },
    );
  }
  app.post<{ Params: { id: string } }>(
    '/api/v1/assets/gateways/:id/test-connective/',
    { config: { perm: 'assets.test_assetconnectivity' } },
    async (req) => {
      const gateway = await findVisible(GATEWAYS, ctxOf(req), req.params.id);
      const ids = await visibleAssetIds(req, [String(gateway.id)]);
      if (!ids.length) throw new ApiError(404, { detail: t(req.lang, 'not_found') });
      return start(req, ids, 'test');
    },
  );
}
