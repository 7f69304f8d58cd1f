import SQLite from 'better-sqlite3';
import type pg from 'pg';
import type { CompiledQuery } from 'kysely';

type Row = Record<string, unknown>;

/**
 * One query read to its end by a cursor, `size` rows at a time (exports: resource/export.ts). The
 * query runs once, so a large export costs what the query costs, whatever its order (no batch
 * re-sorts the rows before its own). Ending the loop early (`return()`, as a stream destroyed when
 * the client goes away does) releases the cursor at once: no further rows are read.
 */
export type CursorReader = (query: CompiledQuery, size: number) => AsyncGenerator<Row[]>;

/**
 * SQLite: a read-only connection of its own per cursor (WAL lets it read beside the writer), its
 * statement iterated `size` rows at a time; the connection's mutex in Kysely is never held between
 * batches, so other requests go on while the client reads.
 */
export function sqliteCursor(file: string): CursorReader {
  return async function* (query, size) {
    const conn = new SQLite(file, { readonly: true, fileMustExist: true });
    conn.pragma('busy_timeout = 5000');
    const it = conn.prepare(query.sql).iterate(...(query.parameters as unknown[])) as IterableIterator<Row>;
    try {
      for (;;) {
        const batch: Row[] = [];
        let r = it.next();
        while (!r.done) {
          batch.push(r.value);
          if (batch.length === size) break;
          r = it.next();
        }
        if (batch.length) yield batch;
        if (batch.length < size) return;
      }
    } finally {
      it.return?.();
      conn.close();
    }
  };
}

let next = 0;

/**
 * PostgreSQL: a pooled connection held for the cursor's life, `DECLARE ... CURSOR` in a read-only
 * transaction, `FETCH FORWARD size`. Cursors are limited to `max` at once (the rest wait their
 * turn), so exports never take the whole pool from the other requests.
 */
export function pgCursor(pool: pg.Pool, max: number): CursorReader {
  let open = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    while (open >= max) await new Promise<void>((r) => waiting.push(r));
    open++;
  };
  const release = () => {
    open--;
    waiting.shift()?.();
  };
  return async function* (query, size) {
    await acquire();
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      const name = `gh_cursor_${++next}`;
      await client.query('BEGIN READ ONLY');
      await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${query.sql}`, query.parameters as unknown[]);
      for (;;) {
        const { rows } = await client.query<Row>(`FETCH FORWARD ${size} FROM ${name}`);
        if (rows.length) yield rows;
        if (rows.length < size) break;
      }
    } finally {
      if (client) {
        // Closing the transaction closes the cursor; a broken connection is dropped from the pool.
        const ended = await client.query('ROLLBACK').then(
          () => undefined,
          (e: Error) => e,
        );
        client.release(ended);
      }
      release();
    }
  };
}
