import { sql, type Expression, type SqlBool } from 'kysely';
import { containsCi } from '../../resource/query.ts';
import type { ResourceCtx } from '../../resource/types.ts';

/**
 * "The command's input contains <term>" (case-insensitive), through the substring index of
 * migration 0700: on SQLite the FTS5 trigram table (a phrase query matches any substring of three
 * characters or more; shorter terms fall back to LIKE, as trigrams cannot serve them), on
 * PostgreSQL `ILIKE`, which the pg_trgm GIN index serves.
 */
export function inputContains(ctx: ResourceCtx, term: string): Expression<SqlBool> {
  // NUL ends a string for FTS5 (and PostgreSQL refuses it in text): no stored input holds one.
  if (term.includes('\u0000')) return sql<SqlBool>`1 = 0`;
  // Within the list's window of newest rows (`ctx.rowScan`) LIKE tests each row, stopping once the
  // page is full; the index would first read every match. LIKE folds ASCII case only, as the
  // trigram index does for ASCII: other terms keep the index so both answer alike.
  if (
    ctx.req.server.deps.database.dialect === 'postgres' ||
    [...term].length < 3 ||
    (ctx.rowScan && /^[\x20-\x7e]*$/.test(term))
  )
    return containsCi(ctx, 'terminal_command.input', term);
  const phrase = `"${term.replace(/"/g, '""')}"`;
  return sql<SqlBool>`terminal_command.rowid IN (SELECT rowid FROM terminal_command_fts WHERE terminal_command_fts MATCH ${phrase})`;
}
