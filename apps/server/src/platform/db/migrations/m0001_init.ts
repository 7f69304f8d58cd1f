import { sql, type Kysely } from 'kysely';

/**
 * Organisations, users, roles and bindings, login sessions and settings.
 * Portable types only (text, integer, boolean): the same migration runs on SQLite and PostgreSQL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('orgs_organization')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('builtin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users_user')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('email', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_first_login', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('need_update_password', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_service_account', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('source', 'varchar(30)', (c) => c.notNull().defaultTo('local'))
    .addColumn('mfa_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phone', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('wechat', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_expired', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_joined', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_login', 'varchar(32)')
    .addColumn('date_password_last_updated', 'varchar(32)')
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rbac_role')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('scope', 'varchar(128)', (c) => c.notNull())
    .addColumn('builtin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('rbac_role_name_scope_uniq', ['name', 'scope'])
    .execute();

  await db.schema
    .createTable('rbac_role_permission')
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull().references('rbac_role.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(128)', (c) => c.notNull())
    .addPrimaryKeyConstraint('rbac_role_permission_pk', ['role_id', 'permission'])
    .execute();

  await db.schema
    .createTable('rbac_rolebinding')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('scope', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'))
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull().references('rbac_role.id').onDelete('cascade'))
    .addColumn('org_id', 'varchar(36)', (c) => c.references('orgs_organization.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('rbac_rolebinding_uniq', ['user_id', 'role_id', 'org_id'])
    .execute();
  // NULL org ids never collide in a unique constraint: system bindings need their own index.
  await db.schema
    .createIndex('rbac_rolebinding_system_uniq')
    .on('rbac_rolebinding')
    .columns(['user_id', 'role_id'])
    .unique()
    .where(sql.ref('org_id'), 'is', null)
    .execute();
  await db.schema.createIndex('rbac_rolebinding_user_idx').on('rbac_rolebinding').column('user_id').execute();

  await db.schema
    .createTable('auth_session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('expire_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_active', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_session_user_idx').on('auth_session').column('user_id').execute();
  await db.schema.createIndex('auth_session_expire_idx').on('auth_session').column('expire_at').execute();

  await db.schema
    .createTable('settings_setting')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('category', 'varchar(128)', (c) => c.notNull().defaultTo('default'))
    .addColumn('encrypted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'settings_setting',
    'auth_session',
    'rbac_rolebinding',
    'rbac_role_permission',
    'rbac_role',
    'users_user',
    'orgs_organization',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
