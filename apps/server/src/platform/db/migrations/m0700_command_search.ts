import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A substring index on the commands' input, so the commands list's search stays fast at millions
 * of rows (`modules/terminal/commandSearch.ts` queries it):
 * - SQLite: an FTS5 table with the trigram tokenizer over `terminal_command.input` (external
 *   content: the text is not stored twice), kept in step by triggers.
 * - PostgreSQL: a GIN `pg_trgm` index, which serves `ILIKE '%term%'`. The extension lives in one
 *   schema of the database (public unless it already exists elsewhere); several migrations racing
 *   to create it are serialised by an advisory lock.
 * Retention deletes by `timestamp_ms` (modules/ops/retention.ts), served by the org/time index;
 * sessions, transfers and activity logs get a plain date index for the same reason.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`SELECT pg_advisory_xact_lock(7001)`.execute(db);
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
    const ext = await sql<{
      schema: string;
    }>`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`.execute(
      db,
    );
    const schema = ext.rows[0]?.schema ?? 'public';
    await sql`CREATE INDEX terminal_command_input_trgm ON terminal_command USING gin (input ${sql.raw(
      `"${schema.replace(/"/g, '""')}".gin_trgm_ops`,
    )})`.execute(db);
  } else {
    await sql`CREATE VIRTUAL TABLE terminal_command_fts USING fts5(input, content='terminal_command', content_rowid='rowid', tokenize='trigram')`.execute(
      db,
    );
    await sql`INSERT INTO terminal_command_fts(rowid, input) SELECT rowid, input FROM terminal_command`.execute(db);
    await sql`CREATE TRIGGER terminal_command_fts_ai AFTER INSERT ON terminal_command BEGIN
      INSERT INTO terminal_command_fts(rowid, input) VALUES (new.rowid, new.input); END`.execute(db);
    await sql`CREATE TRIGGER terminal_command_fts_ad AFTER DELETE ON terminal_command BEGIN
      INSERT INTO terminal_command_fts(terminal_command_fts, rowid, input) VALUES ('delete', old.rowid, old.input); END`.execute(
      db,
    );
    await sql`CREATE TRIGGER terminal_command_fts_au AFTER UPDATE OF input ON terminal_command BEGIN
      INSERT INTO terminal_command_fts(terminal_command_fts, rowid, input) VALUES ('delete', old.rowid, old.input);
      INSERT INTO terminal_command_fts(rowid, input) VALUES (new.rowid, new.input); END`.execute(db);
  }
  await db.schema.createIndex('terminal_command_time_idx').on('terminal_command').column('timestamp_ms').execute();
  await db.schema.createIndex('terminal_session_date_idx').on('terminal_session').column('date_start').execute();
  await db.schema.createIndex('audits_ftplog_date_idx').on('audits_ftplog').column('date_start').execute();
  await db.schema.createIndex('audits_activitylog_datetime_idx').on('audits_activitylog').column('datetime').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audits_activitylog_datetime_idx').execute();
  await db.schema.dropIndex('audits_ftplog_date_idx').execute();
  await db.schema.dropIndex('terminal_session_date_idx').execute();
  await db.schema.dropIndex('terminal_command_time_idx').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`DROP INDEX terminal_command_input_trgm`.execute(db);
  } else {
    for (const t of ['ai', 'ad', 'au']) await sql.raw(`DROP TRIGGER terminal_command_fts_${t}`).execute(db);
    await sql`DROP TABLE terminal_command_fts`.execute(db);
  }
}
