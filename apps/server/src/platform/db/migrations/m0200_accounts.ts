import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * Accounts of assets with their secret history, account templates (and their platforms) and the
 * virtual accounts of each org. Secrets and passphrases are sealed with
 * the secret box before they reach these tables.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
type AnyTable = CreateTableBuilder<any, any>;

function secretColumns(t: AnyTable): AnyTable {
  return t
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('username', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('secret_type', 'varchar(16)', (c) => c.notNull().defaultTo('password'))
    .addColumn('secret', 'text')
    .addColumn('passphrase', 'text')
    .addColumn('spec_info', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('privileged', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull());
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function up(db: Kysely<any>): Promise<void> {
  await secretColumns(
    db.schema.createTable('accounts_accounttemplate').addColumn('id', 'varchar(36)', (c) => c.primaryKey()),
  )
    .addColumn('secret_strategy', 'varchar(16)', (c) => c.notNull().defaultTo('specific'))
    .addColumn('password_rules', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('auto_push', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('push_params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('su_from_id', 'varchar(36)', (c) => c.references('accounts_accounttemplate.id').onDelete('set null'))
    .addUniqueConstraint('accounts_accounttemplate_org_name_uniq', ['org_id', 'name'])
    .execute();
  await db.schema
    .createTable('accounts_accounttemplate_platforms')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('accounttemplate_id', 'varchar(36)', (c) =>
      c.notNull().references('accounts_accounttemplate.id').onDelete('cascade'),
    )
    .addColumn('platform_id', 'integer', (c) => c.notNull().references('assets_platform.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('accounts_tpl_platforms_tpl_idx')
    .on('accounts_accounttemplate_platforms')
    .column('accounttemplate_id')
    .execute();

  await secretColumns(db.schema.createTable('accounts_account').addColumn('id', 'varchar(36)', (c) => c.primaryKey()))
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull().references('assets_asset.id').onDelete('cascade'))
    .addColumn('su_from_id', 'varchar(36)', (c) => c.references('accounts_account.id').onDelete('set null'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'varchar(16)', (c) => c.notNull().defaultTo('local'))
    .addColumn('source_id', 'varchar(36)')
    .addColumn('connectivity', 'varchar(16)', (c) => c.notNull().defaultTo('-'))
    .addColumn('date_verified', 'varchar(32)')
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addUniqueConstraint('accounts_account_asset_name_uniq', ['asset_id', 'name'])
    .addUniqueConstraint('accounts_account_asset_user_type_uniq', ['asset_id', 'username', 'secret_type'])
    .execute();
  await db.schema
    .createIndex('accounts_account_org_name_idx')
    .on('accounts_account')
    .columns(['org_id', 'name'])
    .execute();
  await db.schema.createIndex('accounts_account_source_idx').on('accounts_account').column('source_id').execute();
  await db.schema.createIndex('accounts_account_su_from_idx').on('accounts_account').column('su_from_id').execute();

  await db.schema
    .createTable('accounts_accounthistory')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('account_id', 'varchar(36)', (c) => c.notNull().references('accounts_account.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('secret_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('passphrase', 'text')
    .addColumn('history_date', 'varchar(32)', (c) => c.notNull())
    .addColumn('history_user', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addUniqueConstraint('accounts_accounthistory_version_uniq', ['account_id', 'version'])
    .execute();

  await db.schema
    .createTable('accounts_virtualaccount')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('alias', 'varchar(128)', (c) => c.notNull())
    .addColumn('secret_from_login', 'boolean')
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('accounts_virtualaccount_org_alias_uniq', ['org_id', 'alias'])
    .execute();
}
