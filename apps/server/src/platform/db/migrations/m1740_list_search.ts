import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Substring indexes on the searched columns of the lists that grow with use (people, assets,
 * accounts, permissions, logs, sessions, records), so `?search=` is not a scan of every row
 * (resource/searchIndex.ts reads them; tables of configuration, dozens of rows, keep LIKE):
 * - SQLite: per table an FTS5 `trigram` table `<table>_fts` over those columns (external content,
 *   the table's rowid: the text is not stored twice), filled from the existing rows ('rebuild') and
 *   kept in step by triggers on insert, update of a searched column and delete.
 * - PostgreSQL: a GIN `gin_trgm_ops` index per column, which serves `ILIKE '%term%'`; pg_trgm was
 *   created by migration 0700 (its schema is looked up the same way).
 * The list is frozen here: a column made searchable later gets its own migration (the search
 * falls back to LIKE for a column its table's index does not hold).
 */
const INDEXED: Record<string, string[]> = {
  users_user: ['username', 'name', 'email'],
  users_usergroup: ['name'],
  assets_asset: ['name', 'address', 'comment'],
  accounts_account: ['username', 'name', 'comment'],
  accounts_gatheredaccount: ['username'],
  accounts_automationrecord: ['username', 'asset_name'],
  perms_assetpermission: ['name'],
  audits_userloginlog: ['username', 'ip', 'city'],
  audits_operatelog: ['user', 'resource'],
  audits_passwordchangelog: ['user', 'change_by', 'remote_addr'],
  audits_ftplog: ['user', 'asset', 'account', 'filename'],
  terminal_session: ['user', 'asset', 'account', 'protocol', 'login_from', 'remote_addr'],
  terminal_sessionjoinrecord: ['joiner_display', 'remote_addr'],
  ops_jobexecution: ['material', 'created_by'],
  auth_session: ['ip', 'city'],
};

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
async function upSqlite(db: Kysely<any>, table: string, cols: string[]): Promise<void> {
  const fts = `${table}_fts`;
  const list = cols.map(q).join(', ');
  const values = (row: 'new' | 'old') => cols.map((c) => `${row}.${q(c)}`).join(', ');
  await sql
    .raw(
      `CREATE VIRTUAL TABLE ${q(fts)} USING fts5(${list}, content=${q(table)}, content_rowid='rowid', tokenize='trigram')`,
    )
    .execute(db);
  await sql.raw(`INSERT INTO ${q(fts)}(${q(fts)}) VALUES ('rebuild')`).execute(db);
  const insert = `INSERT INTO ${q(fts)}(rowid, ${list}) VALUES (new.rowid, ${values('new')});`;
  const remove = `INSERT INTO ${q(fts)}(${q(fts)}, rowid, ${list}) VALUES ('delete', old.rowid, ${values('old')});`;
  await sql.raw(`CREATE TRIGGER ${q(`${fts}_ai`)} AFTER INSERT ON ${q(table)} BEGIN ${insert} END`).execute(db);
  await sql.raw(`CREATE TRIGGER ${q(`${fts}_ad`)} AFTER DELETE ON ${q(table)} BEGIN ${remove} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER ${q(`${fts}_au`)} AFTER UPDATE OF ${list} ON ${q(table)} BEGIN ${remove} ${insert} END`)
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const ext = await sql<{
      schema: string;
    }>`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`.execute(
      db,
    );
    const ops = `${q(ext.rows[0]?.schema ?? 'public')}.gin_trgm_ops`;
    for (const [table, cols] of Object.entries(INDEXED))
      for (const c of cols)
        await sql.raw(`CREATE INDEX ${q(`${table}_${c}_trgm`)} ON ${q(table)} USING gin (${q(c)} ${ops})`).execute(db);
  } else {
    for (const [table, cols] of Object.entries(INDEXED)) await upSqlite(db, table, cols);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, cols] of Object.entries(INDEXED)) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      for (const c of cols) await sql.raw(`DROP INDEX ${q(`${table}_${c}_trgm`)}`).execute(db);
      continue;
    }
    for (const t of ['ai', 'ad', 'au']) await sql.raw(`DROP TRIGGER ${q(`${table}_fts_${t}`)}`).execute(db);
    await sql.raw(`DROP TABLE ${q(`${table}_fts`)}`).execute(db);
  }
}
