import type { Kysely } from 'kysely';

/**
 * Login logs (`login-logs/`): one row per sign-in attempt, success or
 * failure. Kept by username (not a foreign key): failures of unknown names are logged too, and the
 * log outlives the user.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audits_userloginlog')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(2)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('city', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('mfa', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('backend', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'boolean', (c) => c.notNull())
    .addColumn('datetime', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audits_userloginlog_datetime_idx')
    .on('audits_userloginlog')
    .column('datetime')
    .execute();
  await db.schema
    .createIndex('audits_userloginlog_username_idx')
    .on('audits_userloginlog')
    .columns(['username', 'datetime'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audits_userloginlog').execute();
}
