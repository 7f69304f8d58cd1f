import type { Kysely } from 'kysely';

/**
 * Settings › Remote apps: applets (`terminal_applet`; its checked package and icon in
 * `terminal_appletpackage`, base64, so every instance serves the same ones and lists never read them), applet hosts (`terminal_applethost`,
 * the extra columns of an asset of the RemoteAppHost platform, removed with it), publications of
 * applets on hosts and deployments of hosts (each one a job-engine execution, `task`).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('terminal_applet')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('version', 'varchar(16)', (c) => c.notNull())
    .addColumn('author', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('general'))
    .addColumn('edition', 'varchar(16)', (c) => c.notNull().defaultTo('community'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('builtin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('can_concurrent', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('protocols', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('readme', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('terminal_appletpackage')
    .addColumn('applet_id', 'varchar(36)', (c) => c.primaryKey().references('terminal_applet.id').onDelete('cascade'))
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('package', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('terminal_applethost')
    .addColumn('asset_id', 'varchar(36)', (c) => c.primaryKey().references('assets_asset.id').onDelete('cascade'))
    .addColumn('deploy_options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('auto_create_accounts', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('accounts_create_amount', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('inited', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_inited', 'varchar(32)')
    .addColumn('date_synced', 'varchar(32)')
    .execute();
  await db.schema
    .createTable('terminal_appletpublication')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('applet_id', 'varchar(36)', (c) => c.notNull().references('terminal_applet.id').onDelete('cascade'))
    .addColumn('host_id', 'varchar(36)', (c) =>
      c.notNull().references('terminal_applethost.asset_id').onDelete('cascade'),
    )
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('terminal_appletpublication_applet_host', ['applet_id', 'host_id'])
    .execute();
  await db.schema
    .createTable('terminal_applethostdeployment')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('host_id', 'varchar(36)', (c) =>
      c.notNull().references('terminal_applethost.asset_id').onDelete('cascade'),
    )
    .addColumn('initial', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('applet_id', 'varchar(36)')
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('task', 'varchar(36)')
    .addColumn('date_start', 'varchar(32)')
    .addColumn('date_finished', 'varchar(32)')
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('terminal_applethostdeployment_host')
    .on('terminal_applethostdeployment')
    .columns(['host_id', 'date_created'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'terminal_applethostdeployment',
    'terminal_appletpublication',
    'terminal_applethost',
    'terminal_appletpackage',
    'terminal_applet',
  ])
    await db.schema.dropTable(t).execute();
}
