import type { FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { containsCi, listQuery, pageOf, type Query } from '../../resource/query.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { serializeRows } from '../../resource/serialize.ts';
import type { AnyQuery, ResourceCtx, Row } from '../../resource/types.ts';
import { assetResource, ASSET_KINDS } from '../assets/assetResource.ts';
import { nodeDb } from '../assets/nodeStore.ts';
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
import { specialNodeJson, type TreeAsset } from './grantTrees.ts';
import { pm } from './permMessages.ts';
import { pick } from '../../resource/describe.ts';

/** Who a grant request is about (the caller, another user, a group) and the lookups its answers share. */
export type Q = Record<string, string | undefined>;
export type Req = FastifyRequest<{ Params: Record<string, string> }>;
const allAssets = assetResource(ASSET_KINDS[0]!);
export const PERMED_FIELDS = [
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

/** What a list of granted assets answers, for OPTIONS. */
export const PERMED_ASSETS = pick(allAssets, PERMED_FIELDS);
export const SEARCH_CAP = 999;

export interface Scope {
  g: GrantDb;
  ctx: ResourceCtx;
  subject: Subject;
  grant: Grant;
  /** The user's id when the subject is a user (favourites). */
  userId?: string;
  ungroup: boolean;
}

const orgOf = (req: FastifyRequest) => (req.org.id === ROOT_ORG_ID ? undefined : req.org.id);

export async function selfSubject(req: Req): Promise<Subject> {
  const org = orgOf(req);
  return { userId: req.user!.id, ...(org ? { orgId: org } : {}) };
}

export async function userSubject(req: Req): Promise<Subject> {
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

export async function groupSubject(req: Req): Promise<Subject> {
  const ref = req.params.group!;
  let q = req.db.selectFrom('users_usergroup').select(['id', 'org_id']).where('id', '=', ref);
  const org = orgOf(req);
  if (org) q = q.where('org_id', '=', org);
  const group = /^[0-9a-f-]{36}$/i.test(ref) ? await q.executeTakeFirst() : undefined;
  if (!group) throw new ApiError(404, { detail: pm(req.lang, 'group_not_found') });
  return { groupId: group.id, orgId: group.org_id };
}

export async function scopeOf(req: Req, subject: Subject, needGrant = true): Promise<Scope> {
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
export async function nodeByRef(s: Scope, ref: string) {
  let q = s.ctx.db.selectFrom('assets_node').selectAll();
  if (s.subject.orgId) q = q.where('org_id', '=', s.subject.orgId);
  const node = await q.where((eb) => eb.or([eb('id', '=', ref), eb('key', '=', ref)])).executeTakeFirst();
  if (!node) throw new ApiError(404, { detail: pm(s.ctx.req.lang, 'node_not_found') });
  return node;
}

/** Asset ids of the subject's favourites that are granted. */
export function favoriteIds(s: Scope) {
  return s.ctx.db
    .selectFrom('assets_favoriteasset')
    .select('asset_id')
    .where('user_id', '=', s.userId ?? '')
    .where('asset_id', 'in', grantedAssetIds(s.g, s.grant));
}

export function directIds(s: Scope) {
  return s.ctx.db
    .selectFrom('perms_assetpermission_assets')
    .select('asset_id')
    .where('assetpermission_id', 'in', s.grant.permIds.length ? s.grant.permIds : ['']);
}

export type IdSource =
  ReturnType<typeof grantedAssetIds> | ReturnType<typeof favoriteIds> | ReturnType<typeof directIds>;

/** AssetPermedSerializer rows of assets among `ids`, with the asset list's filters, search, order and pages. */
export async function assetList(s: Scope, ids: IdSource) {
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

export async function treeAssets(s: Scope, ids: IdSource, search?: string, cap = SEARCH_CAP): Promise<TreeAsset[]> {
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

export async function orgNames(s: Scope): Promise<Map<string, string>> {
  const rows = await s.ctx.db.selectFrom('orgs_organization').select(['id', 'name']).execute();
  return new Map(rows.map((o) => [o.id, o.name]));
}

export async function countOf(s: Scope, ids: IdSource): Promise<number> {
  const r = await s.ctx.db
    .selectFrom('assets_asset')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The granted children of `key` ('' = the top level), ordered by name. */
export async function childNodes(s: Scope, key: string) {
  const nodes = await grantedNodes(s.g, s.grant, {
    parent: key,
    ...(s.subject.orgId ? { orgId: s.subject.orgId } : {}),
    ungroupDirect: s.ungroup,
  });
  return nodes.sort((a, b) => a.value.localeCompare(b.value) || a.key.localeCompare(b.key));
}

export async function allNodes(s: Scope) {
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
export function assetsAt(s: Scope, key: string) {
  const none = s.ungroup && !coveredBy(s.grant.roots, key);
  return grantedAssetIdsAt(s.g, none ? { permIds: [], roots: [] } : s.grant, key);
}

export async function specials(s: Scope): Promise<Row[]> {
  const out: Row[] = [];
  if (s.userId) out.push(specialNodeJson(s.ctx.req, 'favorite', await countOf(s, favoriteIds(s))));
  if (s.ungroup) out.push(specialNodeJson(s.ctx.req, 'ungrouped', await countOf(s, directIds(s))));
  return out;
}
