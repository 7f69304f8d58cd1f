import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * The SQLite handle Kysely is given: `prepare` keeps the most recently used statements by their SQL,
 * so a query the server runs on every request (the session, the user, the org) is compiled by SQLite
 * once instead of each time (Kysely's driver prepares every query anew: about a tenth of a request's
 * time in the authorisation tests' profile). A statement still being iterated (a streamed select) is
 * busy and cannot run twice at once: a fresh one is prepared for that call.
 */
export function cachingStatements(sqlite: SQLite.Database, size = 512): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql) {
      const hit = cache.get(sql);
      if (hit) {
        if (hit.busy) return sqlite.prepare(sql);
        cache.delete(sql); // most recently used last
        cache.set(sql, hit);
        return hit;
      }
      const statement = sqlite.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value!);
      return statement;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}
