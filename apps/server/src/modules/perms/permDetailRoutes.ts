import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findVisible } from '../../resource/routes.ts';
import { containsCi, listQuery, pageOf, type Query } from '../../resource/query.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { serializeRows, outputFields } from '../../resource/serialize.ts';
import type { AnyQuery, ResourceCtx, Row } from '../../resource/types.ts';
import { nodeDb } from '../assets/nodeStore.ts';
import { accountResource } from '../accounts/accountResource.ts';
import { grantedAssetIds, topKeys, type Grant } from './grants.ts';
import { assetPermissionResource as def } from './permResource.ts';
import { shape } from '../../resource/describe.ts';

/**
 * What one permission covers: `<id>/assets/all/` (its assets and every asset under its nodes),
 * `<id>/users/all/` (its users and its groups' members) and `<id>/accounts/` (the stored accounts
 * of those assets that its account list names). Need the permission's view permission, and the
 * permission must be visible in the request's org.
 */
const URL = '/api/v1/perms/asset-permissions/';
type IdReq = FastifyRequest<{ Params: { id: string } }>;
type Q = Record<string, string | undefined>;
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });

/** The permission as a grant of its own (whatever its dates: this shows what it would grant). */
export async function grantOfPermission(ctx: ResourceCtx, permId: string): Promise<Grant> {
  const keys = await ctx.db
    .selectFrom('perms_assetpermission_nodes as pn')
    .innerJoin('assets_node as n', 'n.id', 'pn.node_id')
    .select('n.key')
    .where('pn.assetpermission_id', '=', permId)
    .execute();
  return { permIds: [permId], roots: topKeys(keys.map((k) => k.key)) };
}

async function paged<T>(req: FastifyRequest, q: AnyQuery, map: (r: Row) => T) {
  const page = pageOf(req.query as Query);
  if (!page) return ((await q.execute()) as Row[]).map(map);
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
  return pageOfResults(req, page, count, rows.map(map));
}

function searchOn(ctx: ResourceCtx, q: AnyQuery, cols: string[]): AnyQuery {
  const query = ctx.req.query as Q;
  for (const c of cols) {
    const v = query[c.split('.')[1]!];
    if (v) q = q.where(containsCi(ctx, c, v));
  }
  const s = query.search?.trim();
  if (s) q = q.where((eb) => eb.or(cols.map((c) => containsCi(ctx, c, s))));
  return q;
}

async function assetsAll(req: IdReq) {
  const ctx = ctxOf(req);
  const perm = await findVisible(def, ctx, req.params.id);
  const grant = await grantOfPermission(ctx, String(perm.id));
  let q = ctx.db
    .selectFrom('assets_asset as a')
    .select(['a.id', 'a.name', 'a.address'])
    .where('a.id', 'in', grantedAssetIds(nodeDb(ctx), grant))
    .orderBy('a.name') as unknown as AnyQuery;
  q = searchOn(ctx, q, ['a.name', 'a.address']);
  return paged(req, q, (r) => ({
    id: r.id,
    name: r.name,
    address: r.address,
    asset_display: `${r.name}(${r.address})`,
  }));
}

async function usersAll(req: IdReq) {
  const ctx = ctxOf(req);
  const perm = await findVisible(def, ctx, req.params.id);
  const direct = ctx.db
    .selectFrom('perms_assetpermission_users')
    .select('user_id')
    .where('assetpermission_id', '=', String(perm.id));
  const viaGroups = ctx.db
    .selectFrom('users_user_groups as ug')
    .innerJoin('perms_assetpermission_user_groups as pg', 'pg.usergroup_id', 'ug.usergroup_id')
    .select('ug.user_id')
    .where('pg.assetpermission_id', '=', String(perm.id));
  let q = ctx.db
    .selectFrom('users_user as u')
    .select(['u.id', 'u.username', 'u.name'])
    .where((eb) => eb.or([eb('u.id', 'in', direct), eb('u.id', 'in', viaGroups)]))
    .orderBy('u.username') as unknown as AnyQuery;
  q = searchOn(ctx, q, ['u.username', 'u.name']);
  return paged(req, q, (r) => ({
    id: r.id,
    username: r.username,
    name: r.name,
    user_display: `${r.name}(${r.username})`,
  }));
}

function accountList(raw: unknown): string[] {
  try {
    const v = JSON.parse(String(raw)) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

async function accounts(req: IdReq) {
  const ctx = ctxOf(req);
  const perm = await findVisible(def, ctx, req.params.id);
  const grant = await grantOfPermission(ctx, String(perm.id));
  const items = accountList(perm.accounts);
  const templateIds = items.filter((a) => a.startsWith('%')).map((a) => a.slice(1));
  const templateNames = templateIds.length
    ? (
        await ctx.db.selectFrom('accounts_accounttemplate').select('username').where('id', 'in', templateIds).execute()
      ).map((t) => t.username)
    : [];
  const usernames = [...items.filter((a) => !a.startsWith('@') && !a.startsWith('%')), ...templateNames];
  const all = items.includes('@ALL');
  const query = req.query as Query;
  let q = (await listQuery(accountResource, ctx, query)).where(
    'accounts_account.asset_id',
    'in',
    grantedAssetIds(nodeDb(ctx), grant),
  ) as AnyQuery;
  if (!all) q = q.where('accounts_account.username', 'in', usernames.length ? usernames : ['']);
  const fields = outputFields(accountResource, query);
  const page = pageOf(query);
  if (!page) return serializeRows(accountResource, ctx, (await q.execute()) as Row[], fields);
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
  return pageOfResults(req, page, count, await serializeRows(accountResource, ctx, rows, fields));
}

export function registerPermDetailRoutes(app: FastifyInstance): void {
  const view = 'perms.view_assetpermission';
  const assets = shape('asset', { id: 'string', name: 'string', address: 'string', asset_display: 'string' });
  const users = shape('user', { id: 'string', username: 'string', name: 'string', user_display: 'string' });
  app.get(`${URL}:id/assets/all/`, { config: { perm: [view, 'assets.view_asset'], describe: assets } }, assetsAll);
  app.get(`${URL}:id/users/all/`, { config: { perm: [view, 'users.view_user'], describe: users } }, usersAll);
  app.get(
    `${URL}:id/accounts/`,
    { config: { perm: [view, 'accounts.view_account'], describe: accountResource } },
    accounts,
  );
}
