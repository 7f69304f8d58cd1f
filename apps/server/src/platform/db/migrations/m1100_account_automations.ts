import type { Kysely } from 'kysely';

/**
 * Account automations (docs/automations.md): change-secret, push and gather plans in one table
 * (`type`), their asset and node links, and one record per account of an execution. Executions
 * themselves are rows of the job centre's `ops_jobexecution` (`job_type` = the automation type,
 * `job_id` = the automation), so the one engine queues, claims and schedules them.
 * A record holds the pending secret, sealed, before the host is touched (the "never lose a
 * password" protocol), and the previous one, so a run cut short can be settled later.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts_automation')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('is_periodic', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(24))
    .addColumn('crontab', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('accounts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('secret_type', 'varchar(16)', (c) => c.notNull().defaultTo('password'))
    .addColumn('secret_strategy', 'varchar(16)', (c) => c.notNull().defaultTo('specific'))
    .addColumn('secret', 'text')
    .addColumn('passphrase', 'text')
    .addColumn('password_rules', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('ssh_key_change_strategy', 'varchar(16)', (c) => c.notNull().defaultTo('add'))
    .addColumn('recipients', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('is_sync_account', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('accounts_automation_name_uniq', ['org_id', 'name', 'type'])
    .execute();
  await db.schema
    .createIndex('accounts_automation_periodic_idx')
    .on('accounts_automation')
    .column('is_periodic')
    .execute();
  for (const [table, column, target] of [
    ['accounts_automation_assets', 'asset_id', 'assets_asset'],
    ['accounts_automation_nodes', 'node_id', 'assets_node'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('automation_id', 'varchar(36)', (c) =>
        c.notNull().references('accounts_automation.id').onDelete('cascade'),
      )
      .addColumn(column, 'varchar(36)', (c) => c.notNull().references(`${target}.id`).onDelete('cascade'))
      .addUniqueConstraint(`${table}_uniq`, ['automation_id', column])
      .execute();
  }
  await db.schema
    .createTable('accounts_automationrecord')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('execution_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('automation_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('asset_name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('account_id', 'varchar(36)')
    .addColumn('account_name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('username', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    // pending (secret saved, host not yet known to have it), changed (host accepted, not verified),
    // success, failed.
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    // Which secret opens the host: new, old, unknown ('' while pending).
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('secret_type', 'varchar(16)', (c) => c.notNull().defaultTo('password'))
    .addColumn('new_secret', 'text')
    .addColumn('new_passphrase', 'text')
    .addColumn('old_secret', 'text')
    .addColumn('old_passphrase', 'text')
    .addColumn('old_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_started', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_finished', 'varchar(32)')
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('accounts_automationrecord_exec_idx')
    .on('accounts_automationrecord')
    .column('execution_id')
    .execute();
  await db.schema
    .createIndex('accounts_automationrecord_status_idx')
    .on('accounts_automationrecord')
    .column('status')
    .execute();
  await db.schema
    .createTable('accounts_gatheredaccount')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull().references('assets_asset.id').onDelete('cascade'))
    .addColumn('username', 'varchar(128)', (c) => c.notNull())
    .addColumn('address_last_login', 'varchar(39)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_last_login', 'varchar(32)')
    // Found at the last gather of its asset; false once it is no longer there.
    .addColumn('present', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('accounts_gatheredaccount_uniq', ['asset_id', 'username'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'accounts_gatheredaccount',
    'accounts_automationrecord',
    'accounts_automation_nodes',
    'accounts_automation_assets',
    'accounts_automation',
  ])
    await db.schema.dropTable(t).execute();
}
