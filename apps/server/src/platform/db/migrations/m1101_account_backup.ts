import type { Kysely } from 'kysely';

/**
 * Account backup plans (docs/automations.md, "Backup"): which asset types' accounts go into an
 * encrypted export, and who holds each half of its password. Their executions are rows of
 * `ops_jobexecution` (`job_type` account_backup); the files live under DATA_DIR/account-backups/.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts_backupplan')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('is_periodic', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(24))
    .addColumn('crontab', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('types', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('recipients_part_one', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('recipients_part_two', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('accounts_backupplan_name_uniq', ['org_id', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('accounts_backupplan').execute();
}
