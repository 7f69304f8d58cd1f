import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { containsCi } from '../../resource/query.ts';
import type { ResourceCtx } from '../../resource/types.ts';
import { ASSET_KINDS, assetResource } from './assetResource.ts';
import { fullValues, nodeResource } from './nodeResource.ts';
import { pick } from '../../resource/describe.ts';

/**
 * `GET <asset list>/suggestions/` (MiniAssetSerializer `{id, name, address}`, at most 10) and
 * `GET nodes/suggestions/`. The contract guards them with `assets.match_asset`
 * / `assets.match_node` alone; those two come with the system role User in every organisation, so a
 * user could list the assets of an organisation they do not belong to. We also require the view
 * permission in the current organisation (the authorisation matrix checks exactly that).
 */
const ASSET_PERM = ['assets.match_asset', 'assets.view_asset'];
const NODE_PERM = ['assets.match_node', 'assets.view_node'];
type Q = Record<string, string | undefined>;
const LIMIT = 10;
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });

export function registerSuggestionRoutes(app: FastifyInstance): void {
  for (const kind of ASSET_KINDS) {
    const def = assetResource(kind);
    app.get(
      `${kind.url}suggestions/`,
      { config: { perm: ASSET_PERM, describe: pick(def, ['id', 'name', 'address']) } },
      async (req) => {
        const ctx = ctxOf(req);
        const search = (req.query as Q).search?.trim();
        let q = ctx.db
          .selectFrom('assets_asset')
          .select(['assets_asset.id', 'assets_asset.name', 'assets_asset.address']);
        if (req.org.id !== ROOT_ORG_ID) q = q.where('assets_asset.org_id', '=', req.org.id);
        q = def.scope ? (def.scope(q as never, ctx) as unknown as typeof q) : q;
        if (search)
          q = q.where((eb) =>
            eb.or([containsCi(ctx, 'assets_asset.name', search), containsCi(ctx, 'assets_asset.address', search)]),
          );
        return q.orderBy('assets_asset.name').limit(LIMIT).execute();
      },
    );
  }
  app.get(
    '/api/v1/assets/nodes/suggestions/',
    { config: { perm: NODE_PERM, describe: pick(nodeResource, ['id', 'key', 'value']) } },
    async (req) => {
      const ctx = ctxOf(req);
      const search = (req.query as Q).search?.trim();
      let q = ctx.db.selectFrom('assets_node').select(['id', 'key', 'value', 'org_id']);
      if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
      if (search) q = q.where(containsCi(ctx, 'value', search));
      const rows = await q.orderBy(sql.ref('value')).orderBy('key').limit(LIMIT).execute();
      const full = await fullValues(
        ctx,
        rows.map((n) => n.key),
      );
      return rows.map((n) => ({
        id: n.id,
        key: n.key,
        value: n.value,
        name: n.value,
        full_value: full.get(n.key) ?? '',
        org_id: n.org_id,
      }));
    },
  );
}
