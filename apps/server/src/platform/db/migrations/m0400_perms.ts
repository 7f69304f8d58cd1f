import type { Kysely } from 'kysely';

/**
 * Asset permissions: who (users, user groups) may use what (assets, nodes and their subtrees), with
 * which accounts and actions, between two dates. The four link tables carry their own ids (the
 * relation endpoints list and delete link rows) and are indexed from both sides: grants are
 * computed from them on every request (modules/perms/grants.ts), never cached.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
const LINKS: [table: string, column: string, target: string][] = [
  ['perms_assetpermission_users', 'user_id', 'users_user'],
  ['perms_assetpermission_user_groups', 'usergroup_id', 'users_usergroup'],
  ['perms_assetpermission_assets', 'asset_id', 'assets_asset'],
  ['perms_assetpermission_nodes', 'node_id', 'assets_node'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('perms_assetpermission')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('accounts', 'text', (c) => c.notNull().defaultTo('["@ALL"]'))
    .addColumn('actions', 'integer', (c) => c.notNull().defaultTo(63))
    .addColumn('date_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_expired', 'varchar(32)', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('from_ticket', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    // The date_expired value whose "expires soon" site message went out (none yet: null).
    .addColumn('expire_notified', 'varchar(32)')
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addUniqueConstraint('perms_assetpermission_org_name_uniq', ['org_id', 'name'])
    .execute();
  await db.schema
    .createIndex('perms_assetpermission_expired_idx')
    .on('perms_assetpermission')
    .columns(['date_expired', 'is_active'])
    .execute();
  for (const [table, column, target] of LINKS) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('assetpermission_id', 'varchar(36)', (c) =>
        c.notNull().references('perms_assetpermission.id').onDelete('cascade'),
      )
      .addColumn(column, 'varchar(36)', (c) => c.notNull().references(`${target}.id`).onDelete('cascade'))
      .addUniqueConstraint(`${table}_uniq`, ['assetpermission_id', column])
      .execute();
    // From the subject's side, covering: "the permissions of these users / groups / assets / nodes".
    await db.schema.createIndex(`${table}_rev_idx`).on(table).columns([column, 'assetpermission_id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of LINKS) await db.schema.dropTable(table).execute();
  await db.schema.dropTable('perms_assetpermission').execute();
}
