import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { can } from '../../http/permissions.ts';
import { rt } from '../../resource/messages.ts';
import { am } from './assetMessages.ts';
import { shape } from '../../resource/describe.ts';

/** Own favourite assets (`/api/v1/assets/favorite-assets/`, the JumpServer API). */
const URL = '/api/v1/assets/favorite-assets/';
/** Self-service: every signed-in user keeps their own favourites (IsValidUser in the contract). */
const PERM = {};

async function add(req: FastifyRequest, item: unknown): Promise<{ asset: string } | Record<string, string[]>> {
  const asset = item && typeof item === 'object' ? String((item as { asset?: unknown }).asset ?? '') : '';
  let q = req.db.selectFrom('assets_asset').select('id').where('id', '=', asset);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  // "All organizations" of the workbench is the orgs the caller joined, not every org: an id of
  // another org is as unknown here as anywhere else.
  else if (!(await can(req, 'orgs.view_rootorg')))
    q = q.where(
      'org_id',
      'in',
      req.db
        .selectFrom('rbac_rolebinding')
        .select('org_id')
        .where('user_id', '=', req.user!.id)
        .where('scope', '=', 'org'),
    );
  if (!asset || !(await q.executeTakeFirst())) return { asset: [rt(req.lang, 'invalid_pk', { pk: asset })] };
  const have = await req.db
    .selectFrom('assets_favoriteasset')
    .select('id')
    .where('user_id', '=', req.user!.id)
    .where('asset_id', '=', asset)
    .executeTakeFirst();
  if (!have)
    await req.db
      .insertInto('assets_favoriteasset')
      .values({ id: randomUUID(), user_id: req.user!.id, asset_id: asset, date_created: new Date().toISOString() })
      .execute();
  return { asset };
}

export function registerFavoriteRoutes(app: FastifyInstance): void {
  app.get(URL, { config: { describe: shape('favorite_asset', { asset: 'string' }) } }, async (req) => {
    const asset = (req.query as { asset?: string }).asset;
    let q = req.db
      .selectFrom('assets_favoriteasset')
      .select('asset_id as asset')
      .where('user_id', '=', req.user!.id)
      .orderBy('date_created');
    if (asset) q = q.where('asset_id', '=', asset);
    return q.execute();
  });
  app.post(URL, PERM, async (req, reply) => {
    const many = Array.isArray(req.body);
    const out = [];
    for (const item of many ? (req.body as unknown[]) : [req.body]) out.push(await add(req, item));
    if (out.some((o) => !('asset' in o) || typeof o.asset !== 'string'))
      return reply.code(400).send(many ? out : out[0]);
    return reply.code(201).send(many ? out : out[0]);
  });
  app.delete(URL, PERM, async (req, reply) => {
    const asset = (req.query as { asset?: string }).asset;
    if (!asset) throw new ApiError(400, { error: am(req.lang, 'favorite_one') });
    const r = await req.db
      .deleteFrom('assets_favoriteasset')
      .where('user_id', '=', req.user!.id)
      .where('asset_id', '=', asset)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows))
      throw new ApiError(404, { detail: rt(req.lang, 'not_found', { model: 'Favorite asset' }) });
    return reply.code(204).send();
  });
}
