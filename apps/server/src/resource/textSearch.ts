import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../platform/db/database.ts';
import type { ResourceCtx } from './types.ts';

/** Case-insensitive "contains" that escapes LIKE wildcards, on both databases. */
export function containsCi(ctx: ResourceCtx, ref: string, term: string): Expression<SqlBool> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const op = ctx.req.server.deps.database.dialect === 'postgres' ? sql.raw('ILIKE') : sql.raw('LIKE');
  return sql<SqlBool>`${sql.ref(ref)} ${op} ${pattern} ESCAPE '\\'`;
}

/**
 * "One of these columns contains the term" (case-insensitive, LIKE wildcards typed by the user
 * taken literally), through the table's substring index when it helps (migration 1740):
 * - PostgreSQL: `ILIKE` per column; the planner serves it from the GIN `gin_trgm_ops` indexes (or
 *   scans, when its statistics say the term is common).
 * - SQLite: the LIKE test, narrowed to the rows its FTS5 trigram table `<table>_fts` matches. The
 *   LIKE stays as the re-check, so the rows are exactly LIKE's (FTS5 folds case beyond ASCII, LIKE
 *   does not). Without the index: terms under three characters (no trigram), a NUL (it ends an FTS5
 *   string), a column the index does not hold, a search within a bounded window of rows
 *   (`ctx.rowScan`), and a common term (`isCommon`): reading every match through the index costs
 *   more than the scan (10x on 1M login logs for `user_`).
 */
export async function anyContains(
  ctx: ResourceCtx,
  table: string,
  columns: string[],
  term: string,
): Promise<Expression<SqlBool>> {
  const like = sql<SqlBool>`(${sql.join(
    columns.map((c) => containsCi(ctx, `${table}.${c}`, term)),
    sql` OR `,
  )})`;
  const database = ctx.req.server.deps.database;
  if (database.dialect !== 'sqlite' || ctx.rowScan || [...term].length < 3 || term.includes('\u0000')) return like;
  const indexed = await indexedColumns(database, ctx, table);
  if (!columns.every((c) => indexed.has(c))) return like;
  const fts = sql.table(`${table}_fts`);
  const filter = columns.length < indexed.size ? `{${columns.join(' ')}} : ` : '';
  const query = `${filter}"${term.replace(/"/g, '""')}"`;
  if (await isCommon(ctx, fts, query)) return like;
  return sql<SqlBool>`(${sql.ref(`${table}.rowid`)} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${query}) AND ${like})`;
}

/**
 * The one place that chooses between index and scan: a probe reads at most `SEARCH_COMMON_MATCHES`
 * (10,000) index matches; at the bound the term is common. Each match costs a row read by rowid, the
 * scan a read of every row: at 100k users (SQLite, shared machine) a term of 1,111 matches was
 * counted through the index in ~1 ms against 40-90 ms scanned, one of 11,111 in 4-7 ms against
 * 23-36 ms, one matching every row in 50-90 ms against 30-90 ms.
 */
async function isCommon(ctx: ResourceCtx, fts: ReturnType<typeof sql.table>, query: string): Promise<boolean> {
  const bound = ctx.req.server.deps.config.limits.searchCommonMatches;
  const r = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${query} LIMIT ${bound})`.execute(ctx.db);
  return Number(r.rows[0]?.n ?? 0) >= bound;
}

/** The columns of each table's FTS5 index (none: no index), read once per database. */
const known = new WeakMap<Database, Map<string, Promise<Set<string>>>>();

function indexedColumns(database: Database, ctx: ResourceCtx, table: string): Promise<Set<string>> {
  const tables = known.get(database) ?? new Map<string, Promise<Set<string>>>();
  known.set(database, tables);
  let cols = tables.get(table);
  if (!cols) {
    cols = sql<{ name: string }>`SELECT name FROM pragma_table_info(${`${table}_fts`})`
      .execute(ctx.db)
      .then((r) => new Set(r.rows.map((c) => c.name)));
    tables.set(table, cols);
    cols.catch(() => tables.delete(table)); // asked again next time
  }
  return cols;
}
