import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Row } from './types.ts';

/**
 * Keyset paging over a list's order (`orderTerms` in query.ts, then `id` ascending): the rows
 * after `last` in that order, so an export reads one batch at a time and never holds the whole
 * result (nor its ids) nor re-sorts with an OFFSET. NULLs sort first ascending on SQLite and
 * last ascending on PostgreSQL; the predicate follows each database's own order.
 */
export interface OrderTerm {
  column: string;
  desc: boolean;
}

export function termsOf(terms: string[]): OrderTerm[] {
  return terms.map((t) => ({ column: t.replace(/^-/, ''), desc: t.startsWith('-') }));
}

export function afterRow(
  table: string,
  terms: OrderTerm[],
  last: Row,
  dialect: 'sqlite' | 'postgres',
): Expression<SqlBool> {
  const all = [...terms, { column: 'id', desc: false }];
  const alternatives: RawBuilder<unknown>[] = [];
  for (let i = 0; i < all.length; i++) {
    const same = all.slice(0, i).map((t) => equal(table, t, last[t.column]));
    const next = after(table, all[i]!, last[all[i]!.column], dialect);
    if (next) alternatives.push(sql`(${sql.join([...same, next], sql` AND `)})`);
  }
  return alternatives.length ? sql<SqlBool>`(${sql.join(alternatives, sql` OR `)})` : sql<SqlBool>`1 = 0`;
}

function equal(table: string, t: OrderTerm, v: unknown): RawBuilder<unknown> {
  const c = sql.ref(`${table}.${t.column}`);
  return v === null || v === undefined ? sql`${c} IS NULL` : sql`${c} = ${v}`;
}

/** Rows strictly after `v` in this term's order, or undefined when none can be (the last NULLs). */
function after(
  table: string,
  t: OrderTerm,
  v: unknown,
  dialect: 'sqlite' | 'postgres',
): RawBuilder<unknown> | undefined {
  const c = sql.ref(`${table}.${t.column}`);
  const nullsLast = dialect === 'postgres' ? !t.desc : t.desc;
  if (v === null || v === undefined) return nullsLast ? undefined : sql`${c} IS NOT NULL`;
  const beyond = t.desc ? sql`${c} < ${v}` : sql`${c} > ${v}`;
  return nullsLast ? sql`(${beyond} OR ${c} IS NULL)` : beyond;
}
