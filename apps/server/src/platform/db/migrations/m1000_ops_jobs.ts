import type { Kysely } from 'kysely';

/**
 * The job centre (`ops/`): saved ad-hoc commands, jobs (instant = quick jobs, periodic ones with a
 * crontab or an interval), their executions (the engine's queue: `pending` rows are claimed by one
 * instance, `running` ones carry the instance whose heartbeat keeps them alive) and one record per
 * asset of an execution.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ops_adhoc')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('module', 'varchar(32)', (c) => c.notNull().defaultTo('shell'))
    .addColumn('args', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('creator_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ops_adhoc_creator_idx').on('ops_adhoc').columns(['creator_id', 'org_id']).execute();
  await db.schema
    .createTable('ops_job')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('instant', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('adhoc'))
    .addColumn('module', 'varchar(32)', (c) => c.notNull().defaultTo('shell'))
    .addColumn('args', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('playbook_id', 'varchar(36)')
    .addColumn('assets', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('nodes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('runas', 'varchar(128)', (c) => c.notNull().defaultTo('root'))
    .addColumn('runas_policy', 'varchar(32)', (c) => c.notNull().defaultTo('skip'))
    .addColumn('use_parameter_define', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('parameters_define', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('timeout', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('chdir', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_periodic', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(24))
    .addColumn('crontab', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('creator_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_last_run', 'varchar(32)')
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ops_job_creator_idx')
    .on('ops_job')
    .columns(['creator_id', 'org_id', 'instant'])
    .execute();
  await db.schema.createIndex('ops_job_periodic_idx').on('ops_job').column('is_periodic').execute();
  await db.schema
    .createTable('ops_jobexecution')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('job_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull().defaultTo('manual'))
    .addColumn('parameters', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('material', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job_type', 'varchar(16)', (c) => c.notNull().defaultTo('adhoc'))
    .addColumn('job_version', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('instance_id', 'varchar(64)')
    .addColumn('is_finished', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_success', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('time_cost', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('creator_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_start', 'varchar(32)')
    .addColumn('date_finished', 'varchar(32)')
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ops_jobexecution_creator_idx')
    .on('ops_jobexecution')
    .columns(['creator_id', 'date_created'])
    .execute();
  await db.schema.createIndex('ops_jobexecution_status_idx').on('ops_jobexecution').column('status').execute();
  await db.schema.createIndex('ops_jobexecution_job_idx').on('ops_jobexecution').column('job_id').execute();
  await db.schema
    .createTable('ops_jobexecution_host')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('execution_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('asset', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('account', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('exit_code', 'integer')
    .addColumn('time_cost', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ops_jobexecution_host_exec_idx')
    .on('ops_jobexecution_host')
    .column('execution_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['ops_jobexecution_host', 'ops_jobexecution', 'ops_job', 'ops_adhoc'])
    await db.schema.dropTable(t).execute();
}
