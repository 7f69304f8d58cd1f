import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findVisible, listResponse } from '../../resource/routes.ts';
import { listQuery } from '../../resource/query.ts';
import type { AnyQuery, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { ASSET_KINDS, assetResource } from '../assets/assetResource.ts';
import { groupResource } from '../users/groupResource.ts';
import { userResource } from '../users/userResource.ts';
import { assetPermissionResource as permDef } from './permResource.ts';

/**
 * Who is granted one asset (the asset detail's "authorised users"): `assets/<id>/perm-users/` and
 * `perm-user-groups/` list the users and groups that the permissions in force on the asset name
 * (directly, or on one of its ancestor nodes; users also through their groups), and
 * `perm-users/<uid>/permissions/`, `perm-user-groups/<gid>/permissions/` the permissions that grant
 * it to one of them. Lists with the search, order and pages of their resource. The asset must be
 * visible in the request's org.
 */
const A = '/api/v1/assets/assets/:id';
type Req = FastifyRequest<{ Params: { id: string; sub?: string } }>;
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });
const assets = assetResource(ASSET_KINDS[0]!);

/** Ids of the permissions in force on the asset, with the permission list's own `asset_id` filter. */
async function coveringPermIds(ctx: ResourceCtx, assetId: string): Promise<AnyQuery> {
  const q = await listQuery(permDef, ctx, { asset_id: assetId, is_valid: '1', all: '1' });
  return q.clearSelect().clearOrderBy().select('perms_assetpermission.id');
}

async function visibleAsset(req: Req): Promise<string> {
  return String((await findVisible(assets, ctxOf(req), req.params.id)).id);
}

async function permUsers(req: Req, reply: FastifyReply) {
  const ctx = ctxOf(req);
  const perms = await coveringPermIds(ctx, await visibleAsset(req));
  const direct = ctx.db
    .selectFrom('perms_assetpermission_users')
    .select('user_id')
    .where('assetpermission_id', 'in', perms);
  const viaGroups = ctx.db
    .selectFrom('users_user_groups as ug')
    .innerJoin('perms_assetpermission_user_groups as pg', 'pg.usergroup_id', 'ug.usergroup_id')
    .select('ug.user_id')
    .where('pg.assetpermission_id', 'in', perms);
  return listResponse(userResource, req, reply, (q) =>
    q.where((eb) => eb.or([eb('users_user.id', 'in', direct), eb('users_user.id', 'in', viaGroups)])),
  );
}

async function permGroups(req: Req, reply: FastifyReply) {
  const ctx = ctxOf(req);
  const perms = await coveringPermIds(ctx, await visibleAsset(req));
  const groups = ctx.db
    .selectFrom('perms_assetpermission_user_groups')
    .select('usergroup_id')
    .where('assetpermission_id', 'in', perms);
  return listResponse(groupResource, req, reply, (q) => q.where('users_usergroup.id', 'in', groups));
}

/** The permissions in force on the asset that name this user (`user_id`, with groups) or group. */
function permissionsOf(filter: 'user_id' | 'user_group_id') {
  return async (req: Req, reply: FastifyReply) => {
    const ctx = ctxOf(req);
    const perms = await coveringPermIds(ctx, await visibleAsset(req));
    const sub = await listQuery(permDef, ctx, { [filter]: req.params.sub!, all: '1' });
    const ids = sub.clearSelect().clearOrderBy().select('perms_assetpermission.id');
    return listResponse(permDef, req, reply, (q) =>
      q.where('perms_assetpermission.id', 'in', perms).where('perms_assetpermission.id', 'in', ids),
    );
  };
}

export function registerAssetGranteeRoutes(app: FastifyInstance): void {
  const perm = (describe: ResourceDef) => ({ config: { perm: 'perms.view_assetpermission', describe } });
  app.get(`${A}/perm-users/`, perm(userResource), permUsers);
  app.get(`${A}/perm-users/:sub/permissions/`, perm(permDef), permissionsOf('user_id'));
  app.get(`${A}/perm-user-groups/`, perm(groupResource), permGroups);
  app.get(`${A}/perm-user-groups/:sub/permissions/`, perm(permDef), permissionsOf('user_group_id'));
}
