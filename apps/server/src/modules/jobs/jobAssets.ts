import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { grantedAssetIds } from '../perms/grants.ts';
import { permedAccountsOf } from '../perms/permedAccounts.ts';
import { directIds, favoriteIds, scopeOf, selfSubject, type Req } from '../perms/grantScope.ts';
import { ACTION_BITS } from '../perms/actions.ts';

/**
 * A job's assets from the user's grants: `nodes` (node ids, `favorite`, `ungrouped`) are merged
 * into `assets` as the user's tree shows them, and only granted assets are kept. The accounts a
 * job may use on an asset are the user's permed stored accounts with the `connect` action.
 */
export async function grantedAssetsOf(req: FastifyRequest, assets: string[], nodes: string[]): Promise<string[]> {
  const s = await scopeOf(req as Req, await selfSubject(req as Req));
  const out = new Set<string>();
  const granted = new Set((await grantedAssetIds(s.g, s.grant).execute()).map((r) => r.asset_id));
  for (const a of assets) if (granted.has(a)) out.add(a);
  for (const ref of nodes) {
    let ids: { asset_id: string }[];
    if (ref === 'favorite') ids = await favoriteIds(s).execute();
    else if (ref === 'ungrouped') ids = await directIds(s).execute();
    else {
      let q = s.ctx.db.selectFrom('assets_node').select('key').where('id', '=', ref);
      if (s.subject.orgId) q = q.where('org_id', '=', s.subject.orgId);
      const node = /^[0-9a-f-]{36}$/i.test(ref) ? await q.executeTakeFirst() : undefined;
      ids = node ? await grantedAssetIds(s.g, s.grant, node.key).execute() : [];
    }
    for (const r of ids) if (granted.has(r.asset_id)) out.add(r.asset_id);
  }
  return [...out];
}

export interface JobAccount {
  id: string;
  name: string;
  username: string;
  privileged: boolean;
}

/** The stored accounts the user may connect with on the asset now (empty: not granted). */
export async function connectableAccounts(
  g: { db: Kysely<DB>; dialect: 'sqlite' | 'postgres' },
  userId: string,
  assetId: string,
  orgId?: string,
): Promise<JobAccount[]> {
  const permed = (await permedAccountsOf(g, userId, assetId, orgId ? { orgId } : {})).filter(
    (a) => a.real && (a.actions & ACTION_BITS.connect) !== 0,
  );
  if (!permed.length) return [];
  const rows = await g.db
    .selectFrom('accounts_account')
    .select(['id', 'privileged'])
    .where(
      'id',
      'in',
      permed.map((a) => a.id),
    )
    .execute();
  const priv = new Map(rows.map((r) => [r.id, r.privileged === true || r.privileged === 1]));
  return permed.map((a) => ({ id: a.id, name: a.name, username: a.username, privileged: priv.get(a.id) ?? false }));
}

/**
 * The account run-as and its policy pick (the original's inventory rule): an account whose username
 * is one of `runas` (comma-separated) first; none and `skip`: none; `privileged_only` and
 * `privileged_first`: the first privileged account; `privileged_first` then any account.
 */
export function pickAccount(accounts: JobAccount[], runas: string, policy: string): JobAccount | undefined {
  const wanted = runas
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const named = accounts.find((a) => wanted.includes(a.username));
  if (named || policy === 'skip') return named;
  const privileged = accounts.find((a) => a.privileged);
  if (privileged) return privileged;
  return policy === 'privileged_first' ? accounts[0] : undefined;
}

/** Top 10 usernames among the user's connectable accounts on the assets, by how many assets have them. */
export async function usernameHints(req: FastifyRequest, assets: string[], nodes: string[], query: string) {
  const ids = await grantedAssetsOf(req, assets, nodes);
  const g = { db: req.db, dialect: req.server.deps.database.dialect };
  const counts = new Map<string, number>();
  for (const id of ids.slice(0, 2000))
    for (const u of new Set((await connectableAccounts(g, req.user!.id, id)).map((a) => a.username)))
      if (!query || u.toLowerCase().includes(query.toLowerCase())) counts.set(u, (counts.get(u) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([username, total]) => ({ username, total }));
}
