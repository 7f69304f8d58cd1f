import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * Access-control rules: login rules and connect-method rules (outside
 * organisations), login-asset and command-filter rules and command groups (in an organisation).
 * Selectors, rules and account lists are JSON text; reviewers and command groups are link tables
 * that go with their rule.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
function base(t: CreateTableBuilder<any, any>): CreateTableBuilder<any, any> {
  return t
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(50))
    .addColumn('action', 'varchar(64)', (c) => c.notNull().defaultTo('reject'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('users', 'text', (c) => c.notNull().defaultTo('{"type":"all"}'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull());
}

const org = (t: CreateTableBuilder<any, any>) =>
  t.addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'));

async function link(
  db: Kysely<any>,
  table: string,
  left: string,
  leftTable: string,
  right: string,
  rightTable: string,
) {
  await db.schema
    .createTable(table)
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn(left, 'varchar(36)', (c) => c.notNull().references(`${leftTable}.id`).onDelete('cascade'))
    .addColumn(right, 'varchar(36)', (c) => c.notNull().references(`${rightTable}.id`).onDelete('cascade'))
    .addUniqueConstraint(`${table}_uniq`, [left, right])
    .execute();
  await db.schema.createIndex(`${table}_right_idx`).on(table).column(right).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await base(db.schema.createTable('acls_loginacl'))
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('{}'))
    .addUniqueConstraint('acls_loginacl_name_uniq', ['name'])
    .execute();
  await base(db.schema.createTable('acls_connectmethodacl'))
    .addColumn('connect_methods', 'text', (c) => c.notNull().defaultTo('[]'))
    .addUniqueConstraint('acls_connectmethodacl_name_uniq', ['name'])
    .execute();
  await org(base(db.schema.createTable('acls_loginassetacl')))
    .addColumn('assets', 'text', (c) => c.notNull().defaultTo('{"type":"all"}'))
    .addColumn('accounts', 'text', (c) => c.notNull().defaultTo('["@ALL"]'))
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('{}'))
    .addUniqueConstraint('acls_loginassetacl_org_name_uniq', ['org_id', 'name'])
    .execute();
  await org(base(db.schema.createTable('acls_commandfilteracl')))
    .addColumn('assets', 'text', (c) => c.notNull().defaultTo('{"type":"all"}'))
    .addColumn('accounts', 'text', (c) => c.notNull().defaultTo('["@ALL"]'))
    .addUniqueConstraint('acls_commandfilteracl_org_name_uniq', ['org_id', 'name'])
    .execute();
  await org(
    db.schema
      .createTable('acls_commandgroup')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('command'))
      .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('ignore_case', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
      .addColumn('date_updated', 'varchar(32)', (c) => c.notNull()),
  )
    .addUniqueConstraint('acls_commandgroup_org_name_uniq', ['org_id', 'name'])
    .execute();
  for (const kind of ['loginacl', 'loginassetacl', 'commandfilteracl'])
    await link(db, `acls_${kind}_reviewers`, 'acl_id', `acls_${kind}`, 'user_id', 'users_user');
  await link(
    db,
    'acls_commandfilteracl_command_groups',
    'commandfilteracl_id',
    'acls_commandfilteracl',
    'commandgroup_id',
    'acls_commandgroup',
  );
  for (const t of ['acls_loginassetacl', 'acls_commandfilteracl', 'acls_commandgroup'])
    await db.schema.createIndex(`${t}_org_idx`).on(t).column('org_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'acls_commandfilteracl_command_groups',
    'acls_commandfilteracl_reviewers',
    'acls_loginassetacl_reviewers',
    'acls_loginacl_reviewers',
    'acls_commandgroup',
    'acls_commandfilteracl',
    'acls_loginassetacl',
    'acls_connectmethodacl',
    'acls_loginacl',
  ])
    await db.schema.dropTable(t).execute();
}
/* eslint-enable @typescript-eslint/no-explicit-any */
