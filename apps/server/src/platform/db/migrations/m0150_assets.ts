import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Assets, platforms and their protocols, nodes, domains, labels, favourites and background
 * tasks. One asset table for every category: the category-specific
 * attributes are nullable columns. Node keys are materialised paths (`1:3:2`); subtree queries
 * are key prefixes, indexed (SQLite: GLOB on the binary-collated index; PostgreSQL:
 * text_pattern_ops for LIKE 'k:%').
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('assets_platform')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('internal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('charset', 'varchar(8)', (c) => c.notNull().defaultTo('utf-8'))
    .addColumn('domain_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('su_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('su_method', 'varchar(32)')
    .addColumn('automation', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('custom_fields', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('assets_platformprotocol')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('platform_id', 'integer', (c) => c.notNull().references('assets_platform.id').onDelete('cascade'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('primary', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('required', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('public', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('setting', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('assets_platformprotocol_platform_idx')
    .on('assets_platformprotocol')
    .column('platform_id')
    .execute();

  await db.schema
    .createTable('assets_domain')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('assets_domain_org_name_uniq', ['org_id', 'name'])
    .execute();

  await db.schema
    .createTable('assets_asset')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('address', 'varchar(767)', (c) => c.notNull())
    .addColumn('platform_id', 'integer', (c) => c.notNull().references('assets_platform.id'))
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('domain_id', 'varchar(36)', (c) => c.references('assets_domain.id').onDelete('set null'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('connectivity', 'varchar(16)', (c) => c.notNull().defaultTo('-'))
    .addColumn('date_verified', 'varchar(32)')
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gathered_info', 'text', (c) => c.notNull().defaultTo('{}'))
    // database
    .addColumn('db_name', 'varchar(1024)')
    .addColumn('use_ssl', 'boolean')
    .addColumn('allow_invalid_cert', 'boolean')
    .addColumn('ca_cert', 'text')
    .addColumn('client_cert', 'text')
    .addColumn('client_key', 'text')
    // web
    .addColumn('autofill', 'varchar(16)')
    .addColumn('username_selector', 'varchar(128)')
    .addColumn('password_selector', 'varchar(128)')
    .addColumn('submit_selector', 'varchar(128)')
    .addColumn('script', 'text')
    // gpt, custom
    .addColumn('proxy', 'varchar(128)')
    .addColumn('custom_info', 'text')
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('assets_asset_org_name_uniq', ['org_id', 'name'])
    .execute();
  await db.schema.createIndex('assets_asset_platform_idx').on('assets_asset').column('platform_id').execute();
  await db.schema.createIndex('assets_asset_domain_idx').on('assets_asset').column('domain_id').execute();
  await db.schema
    .createIndex('assets_asset_org_category_idx')
    .on('assets_asset')
    .columns(['org_id', 'category'])
    .execute();

  await db.schema
    .createTable('assets_protocol')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull().references('assets_asset.id').onDelete('cascade'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assets_protocol_asset_idx')
    .on('assets_protocol')
    .columns(['asset_id', 'name'])
    .execute();

  await db.schema
    .createTable('assets_node')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('key', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('value', 'varchar(128)', (c) => c.notNull())
    .addColumn('parent_key', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('child_mark', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('assets_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addColumn('date_create', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assets_node_parent_idx').on('assets_node').columns(['parent_key', 'value']).execute();
  await db.schema.createIndex('assets_node_org_idx').on('assets_node').columns(['org_id', 'parent_key']).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE INDEX assets_node_key_prefix_idx ON assets_node (key text_pattern_ops)`.execute(db);
  }

  await db.schema
    .createTable('assets_asset_nodes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull().references('assets_asset.id').onDelete('cascade'))
    .addColumn('node_id', 'varchar(36)', (c) => c.notNull().references('assets_node.id').onDelete('cascade'))
    .addUniqueConstraint('assets_asset_nodes_uniq', ['asset_id', 'node_id'])
    .execute();
  await db.schema
    .createIndex('assets_asset_nodes_node_idx')
    .on('assets_asset_nodes')
    .columns(['node_id', 'asset_id'])
    .execute();

  await db.schema
    .createTable('assets_label')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'varchar(128)', (c) => c.notNull())
    .addColumn('category', 'varchar(8)', (c) => c.notNull().defaultTo('U'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('assets_label_uniq', ['org_id', 'name', 'value'])
    .execute();
  await db.schema
    .createTable('assets_asset_labels')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull().references('assets_asset.id').onDelete('cascade'))
    .addColumn('label_id', 'varchar(36)', (c) => c.notNull().references('assets_label.id').onDelete('cascade'))
    .addUniqueConstraint('assets_asset_labels_uniq', ['asset_id', 'label_id'])
    .execute();
  await db.schema.createIndex('assets_asset_labels_label_idx').on('assets_asset_labels').column('label_id').execute();

  await db.schema
    .createTable('assets_favoriteasset')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'))
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull().references('assets_asset.id').onDelete('cascade'))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('assets_favoriteasset_uniq', ['user_id', 'asset_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'assets_favoriteasset',
    'assets_asset_labels',
    'assets_label',
    'assets_asset_nodes',
    'assets_node',
    'assets_protocol',
    'assets_asset',
    'assets_domain',
    'assets_platformprotocol',
    'assets_platform',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
