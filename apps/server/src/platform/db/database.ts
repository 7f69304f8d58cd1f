import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import { SchemaPostgresDialect } from './pgSchemaIntrospector.ts';
import { SqliteBooleanPlugin } from './sqliteBooleans.ts';
import { cachingStatements } from './sqliteStatements.ts';
import { pgCursor, sqliteCursor, type CursorReader } from './cursor.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** A query read by a cursor in batches (exports), beside the other requests (cursor.ts). */
  cursor: CursorReader;
  close(): Promise<void>;
}

// COUNT(*) and other int8 values arrive as strings from pg; they fit in a JS number here.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface OpenOptions {
  /** PostgreSQL schema to use as search_path (tests isolate each file in its own schema). */
  pgSchema?: string;
}

function openSqlite(file: string): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
    plugins: [new SqliteBooleanPlugin()],
  });
  return { db, dialect: 'sqlite', cursor: sqliteCursor(file), close: () => db.destroy() };
}

async function openPostgres(url: string, opts: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
  });
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    client.release();
  } catch (e) {
    await pool.end();
    throw new Error(`cannot connect to PostgreSQL (${(e as Error).message})`);
  }
  const db = new Kysely<DB>({ dialect: new SchemaPostgresDialect({ pool }) });
  // Cursors take at most 4 of the pool's 10 connections (the others serve the rest meanwhile).
  return { db, dialect: 'postgres', cursor: pgCursor(pool, 4), close: () => db.destroy() };
}

/** Opens `sqlite:<file>` or `postgres://...`; throws an Error with a one-line reason when it cannot. */
export async function openDatabase(url: string, opts: OpenOptions = {}): Promise<Database> {
  if (url.startsWith('sqlite:')) {
    try {
      return openSqlite(url.slice('sqlite:'.length));
    } catch (e) {
      throw new Error(`cannot open the SQLite file (${(e as Error).message})`);
    }
  }
  return openPostgres(url, opts);
}
