import type { Kysely } from 'kysely';

/**
 * Cloud sync (`modules/cloud/`, docs/cloud.md): provider accounts (secrets sealed), strategies,
 * sync-instance tasks, the instances each task imported (one row per provider instance, the asset
 * it became and whether the provider still lists it) and one record per instance of each run. Runs
 * themselves are executions of the job engine (`ops_jobexecution`, `job_type` `cloud_sync`).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  const common = (t: any) =>
    t
      .addColumn('comment', 'text', (c: any) => c.notNull().defaultTo(''))
      .addColumn('org_id', 'varchar(36)', (c: any) => c.notNull())
      .addColumn('created_by', 'varchar(128)', (c: any) => c.notNull().defaultTo(''))
      .addColumn('updated_by', 'varchar(128)', (c: any) => c.notNull().defaultTo(''))
      .addColumn('date_created', 'varchar(32)', (c: any) => c.notNull())
      .addColumn('date_updated', 'varchar(32)', (c: any) => c.notNull());
  await common(
    db.schema
      .createTable('cloud_account')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('provider', 'varchar(32)', (c) => c.notNull())
      .addColumn('attrs', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('validity', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('date_last_test', 'varchar(32)'),
  )
    .addUniqueConstraint('cloud_account_org_name_uniq', ['org_id', 'name'])
    .execute();
  await common(
    db.schema
      .createTable('cloud_strategy')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(50))
      .addColumn('rule_relation', 'varchar(8)', (c) => c.notNull().defaultTo('and'))
      .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('actions', 'text', (c) => c.notNull().defaultTo('[]')),
  )
    .addUniqueConstraint('cloud_strategy_org_name_uniq', ['org_id', 'name'])
    .execute();
  await common(
    db.schema
      .createTable('cloud_synctask')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('account_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('regions', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('nodes', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('hostname_strategy', 'varchar(16)', (c) => c.notNull().defaultTo('instance_name'))
      .addColumn('protocols', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('platform_id', 'integer')
      .addColumn('strategies', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('release_policy', 'varchar(16)', (c) => c.notNull().defaultTo('keep'))
      .addColumn('is_periodic', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(24))
      .addColumn('crontab', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('creator_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('date_last_sync', 'varchar(32)'),
  )
    .addUniqueConstraint('cloud_synctask_org_name_uniq', ['org_id', 'name'])
    .execute();
  await db.schema.createIndex('cloud_synctask_periodic_idx').on('cloud_synctask').column('is_periodic').execute();
  await db.schema
    .createTable('cloud_syncinstance')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('task_id', 'varchar(36)', (c) => c.notNull().references('cloud_synctask.id').onDelete('cascade'))
    .addColumn('instance_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('region', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'varchar(767)', (c) => c.notNull().defaultTo(''))
    .addColumn('asset_id', 'varchar(36)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('present'))
    .addColumn('last_execution_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('date_sync', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('cloud_syncinstance_uniq', ['task_id', 'instance_id'])
    .execute();
  await db.schema.createIndex('cloud_syncinstance_asset_idx').on('cloud_syncinstance').column('asset_id').execute();
  await db.schema
    .createTable('cloud_syncrecord')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('execution_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('task_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('instance_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'varchar(767)', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cloud_syncrecord_exec_idx')
    .on('cloud_syncrecord')
    .columns(['execution_id', 'action'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['cloud_syncrecord', 'cloud_syncinstance', 'cloud_synctask', 'cloud_strategy', 'cloud_account'])
    await db.schema.dropTable(t).execute();
}
