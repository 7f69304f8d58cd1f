import { sql, type Expression, type SqlBool } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { containsCi } from '../../resource/query.ts';
import type { AnyQuery, ResourceCtx } from '../../resource/types.ts';
import {
  ancestorKeys,
  childNamed,
  createChild,
  fullValues,
  inSubtree,
  nodeDb,
  orgRoot,
  type NodeRow,
} from './nodeStore.ts';

/**
 * Nodes named by their path (`full_value`): created with their missing ancestors, and found by
 * `?search=` on the path as the contract's clients expect (`Default/a/b` finds `b`).
 */

export const SEGMENT_MAX = 128;
/** Keys (`2:14:3…`) are at most 255 characters: 30 levels leave room for large child marks. */
export const DEPTH_MAX = 30;

/** The names of a path below the org root; a first name equal to the org's (its root's) name is dropped. */
export function pathSegments(path: string, orgNames: string[]): string[] {
  const parts = path
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  const names = orgNames.map((n) => n.toLowerCase());
  if (parts.length && names.includes(parts[0]!.toLowerCase())) parts.shift();
  return parts;
}

export async function segmentsOf(ctx: ResourceCtx, path: string): Promise<{ root: NodeRow; parts: string[] }> {
  const root = await orgRoot(nodeDb(ctx), ctx.req.org.id);
  return { root, parts: pathSegments(path, [root.value, ctx.req.org.name]) };
}

/** Whether the whole path already exists. */
export async function pathExists(ctx: ResourceCtx, root: NodeRow, parts: string[]): Promise<boolean> {
  let node: NodeRow | undefined = root;
  for (const part of parts) {
    node = await childNamed(nodeDb(ctx), node.key, part);
    if (!node) return false;
  }
  return true;
}

/** The parent of the path's last name, creating the missing ancestors. */
export async function ensureParent(ctx: ResourceCtx, root: NodeRow, parts: string[]): Promise<NodeRow> {
  const n = nodeDb(ctx);
  let node = root;
  for (const part of parts.slice(0, -1))
    node = (await childNamed(n, node.key, part)) ?? (await createChild(n, node, part));
  return node;
}

/** At most this many nodes carry a term's last name; beyond that the search answers the first ones by key. */
const CANDIDATES = 500;

/**
 * `?search=` over `full_value` (every term must be contained, case-insensitively). A term ends
 * inside the name of one node, whose name therefore contains the term's last name: those nodes
 * are the candidates; the ones whose path contains the term match with their whole subtree, the
 * ones whose path followed by `/` does (a term ending in `/`) match with their descendants.
 */
export async function searchFullValue(q: AnyQuery, raw: string, ctx: ResourceCtx): Promise<AnyQuery> {
  const n = nodeDb(ctx);
  for (const term of raw.split(/[\s,]+/).filter(Boolean)) {
    const last = term
      .split('/')
      .reverse()
      .find((s) => s);
    if (!last) continue;
    let c = ctx.db
      .selectFrom('assets_node')
      .select('key')
      .where(containsCi(ctx, 'value', last));
    if (ctx.req.org.id !== ROOT_ORG_ID) c = c.where('org_id', '=', ctx.req.org.id);
    const keys = (await c.orderBy('key').limit(CANDIDATES).execute()).map((r) => r.key);
    const full = await fullValues(ctx, keys);
    const wanted = term.toLowerCase();
    const subtrees: string[] = [];
    const below: string[] = [];
    for (const key of keys) {
      const fv = full.get(key)!.toLowerCase();
      if (fv.includes(wanted)) subtrees.push(key);
      else if (`${fv}/`.includes(wanted)) below.push(key);
    }
    const covered = new Set(subtrees);
    const top = (keys: string[]) =>
      keys.filter(
        (k) =>
          !ancestorKeys(k)
            .slice(0, -1)
            .some((a) => covered.has(a)),
      );
    const ref = 'assets_node.key';
    const conditions: Expression<SqlBool>[] = [
      ...top(subtrees).map((k) => inSubtree(n, ref, k)),
      ...top(below).map((k) => sql<SqlBool>`(${inSubtree(n, ref, k)} AND ${sql.ref(ref)} <> ${k})`),
    ];
    q = conditions.length ? q.where((eb) => eb.or(conditions)) : q.where(sql.lit(false));
  }
  return q;
}
