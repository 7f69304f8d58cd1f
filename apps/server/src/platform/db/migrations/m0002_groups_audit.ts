import type { Kysely } from 'kysely';

/** User groups and their members; the operate log and activity log every write records. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users_usergroup')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('users_usergroup_org_name_uniq', ['org_id', 'name'])
    .execute();

  await db.schema
    .createTable('users_user_groups')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'))
    .addColumn('usergroup_id', 'varchar(36)', (c) => c.notNull().references('users_usergroup.id').onDelete('cascade'))
    .addUniqueConstraint('users_user_groups_uniq', ['user_id', 'usergroup_id'])
    .execute();
  await db.schema.createIndex('users_user_groups_group_idx').on('users_user_groups').column('usergroup_id').execute();

  await db.schema
    .createTable('audits_operatelog')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user', 'varchar(128)', (c) => c.notNull())
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('resource_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('resource', 'varchar(256)', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('remote_addr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('datetime', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('diff', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createIndex('audits_operatelog_resource_idx')
    .on('audits_operatelog')
    .columns(['resource_id', 'datetime'])
    .execute();
  await db.schema.createIndex('audits_operatelog_datetime_idx').on('audits_operatelog').column('datetime').execute();

  await db.schema
    .createTable('audits_activitylog')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(2)', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('detail_id', 'varchar(36)')
    .addColumn('username', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('datetime', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audits_activitylog_resource_idx')
    .on('audits_activitylog')
    .columns(['resource_id', 'datetime'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['audits_activitylog', 'audits_operatelog', 'users_user_groups', 'users_usergroup'])
    await db.schema.dropTable(t).execute();
}
