import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { Strategy, StrategyAction, StrategyRule } from './strategy.ts';

/** Reading the JSON columns of cloud sync's tables. */
export function parseList(s: string | null | undefined): string[] {
  try {
    const v = JSON.parse(s ?? '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function parseProtocols(s: string): { name: string; port: number }[] {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v)
      ? v
          .filter((p): p is { name: string; port: number } => Boolean(p && typeof p === 'object' && 'name' in p))
          .map((p) => ({ name: String(p.name), port: Number(p.port) }))
      : [];
  } catch {
    return [];
  }
}

export async function loadStrategies(db: Kysely<DB>, ids: string[], orgId: string): Promise<Strategy[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('cloud_strategy')
    .selectAll()
    .where('id', 'in', ids)
    .where('org_id', '=', orgId)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    priority: Number(r.priority),
    rule_relation: r.rule_relation === 'or' ? 'or' : 'and',
    rules: JSON.parse(r.rules) as StrategyRule[],
    actions: JSON.parse(r.actions) as StrategyAction[],
  }));
}
