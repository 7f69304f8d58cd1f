import type { Kysely } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import type { Subject } from './matcher/rules.ts';
import type { Selector } from './matcher/selector.ts';

/**
 * Users and assets described for the matcher: their id and the attributes a selector's rules can
 * name. Relations carry both ids and names, so a rule may name either (`groups m2m ["Ops"]`).
 */
export const USER_ATTRS = ['name', 'username', 'email', 'comment', 'source', 'groups'] as const;
export const ASSET_ATTRS = [
  'name',
  'address',
  'platform',
  'category',
  'type',
  'nodes',
  'labels',
  'protocols',
  'comment',
] as const;

type Db = Kysely<DB>;

function group<T extends { k: string }>(rows: T[], pick: (r: T) => string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r.k) ?? [];
    list.push(...pick(r));
    out.set(r.k, list);
  }
  return out;
}

/** Users, optionally only some ids; `orgId` limits them to the org's members (not in the root org). */
export async function loadUsers(
  db: Db,
  opts: { ids?: string[]; orgId?: string },
): Promise<(Subject & { row: Record<string, unknown> })[]> {
  if (opts.ids && !opts.ids.length) return [];
  let q = db
    .selectFrom('users_user')
    .select(['id', 'name', 'username', 'email', 'comment', 'source', 'is_active'])
    .where('is_service_account', '=', false);
  if (opts.ids) q = q.where('id', 'in', opts.ids);
  if (opts.orgId && opts.orgId !== ROOT_ORG_ID)
    q = q.where(
      'id',
      'in',
      db.selectFrom('rbac_rolebinding').select('user_id').where('scope', '=', 'org').where('org_id', '=', opts.orgId),
    );
  const users = await q.orderBy('username').execute();
  if (!users.length) return [];
  let gq = db
    .selectFrom('users_user_groups as l')
    .innerJoin('users_usergroup as g', 'g.id', 'l.usergroup_id')
    .select(['l.user_id as k', 'g.id', 'g.name']);
  if (opts.ids) gq = gq.where('l.user_id', 'in', opts.ids);
  if (opts.orgId && opts.orgId !== ROOT_ORG_ID) gq = gq.where('g.org_id', '=', opts.orgId);
  const groups = group(await gq.execute(), (r) => [r.id, r.name]);
  return users.map((u) => ({
    id: u.id,
    row: u,
    attrs: {
      name: u.name,
      username: u.username,
      email: u.email,
      comment: u.comment,
      source: u.source,
      groups: groups.get(u.id) ?? [],
    },
  }));
}

/** Assets of an org (every org in the root org), optionally only some ids. */
export async function loadAssets(
  db: Db,
  opts: { ids?: string[]; orgId: string },
): Promise<(Subject & { row: Record<string, unknown> })[]> {
  if (opts.ids && !opts.ids.length) return [];
  let q = db
    .selectFrom('assets_asset as a')
    .innerJoin('assets_platform as p', 'p.id', 'a.platform_id')
    .select([
      'a.id',
      'a.name',
      'a.address',
      'a.category',
      'a.type',
      'a.comment',
      'a.platform_id',
      'p.name as platform_name',
    ]);
  if (opts.ids) q = q.where('a.id', 'in', opts.ids);
  if (opts.orgId !== ROOT_ORG_ID) q = q.where('a.org_id', '=', opts.orgId);
  const assets = await q.orderBy('a.name').execute();
  if (!assets.length) return [];
  const nodeRows = [];
  const labelRows = [];
  const protocolRows = [];
  // In slices, so an org of any size stays under the databases' bound-parameter limits.
  for (let i = 0; i < assets.length; i += 1000) {
    const ids = assets.slice(i, i + 1000).map((a) => a.id);
    nodeRows.push(
      ...(await db
        .selectFrom('assets_asset_nodes as l')
        .innerJoin('assets_node as n', 'n.id', 'l.node_id')
        .select(['l.asset_id as k', 'n.id', 'n.value', 'n.key'])
        .where('l.asset_id', 'in', ids)
        .execute()),
    );
    labelRows.push(
      ...(await db
        .selectFrom('assets_asset_labels as l')
        .innerJoin('assets_label as b', 'b.id', 'l.label_id')
        .select(['l.asset_id as k', 'b.id', 'b.name', 'b.value'])
        .where('l.asset_id', 'in', ids)
        .execute()),
    );
    protocolRows.push(
      ...(await db
        .selectFrom('assets_protocol')
        .select(['asset_id as k', 'name'])
        .where('asset_id', 'in', ids)
        .execute()),
    );
  }
  const nodes = group(nodeRows, (r) => [r.id, r.value, r.key]);
  const labels = group(labelRows, (r) => [r.id, `${r.name}:${r.value}`]);
  const protocols = group(protocolRows, (r) => [r.name]);
  return assets.map((a) => ({
    id: a.id,
    row: a,
    attrs: {
      name: a.name,
      address: a.address,
      category: a.category,
      type: a.type,
      comment: a.comment,
      platform: [String(a.platform_id), a.platform_name],
      nodes: nodes.get(a.id) ?? [],
      labels: labels.get(a.id) ?? [],
      protocols: protocols.get(a.id) ?? [],
    },
  }));
}

/** The ids a selector names, when it names ids (so only those rows need loading). */
export function idsOf(selector: Selector): string[] | undefined {
  return selector.type === 'ids' ? selector.ids : undefined;
}
