import type { Kysely } from 'kysely';

/**
 * Playbooks (`ops/playbooks/`): a user's own Ansible workspaces, each a folder of files under
 * DATA_DIR/playbooks/<id>/ (the table holds what the list shows; the files are the playbook).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ops_playbook')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('path', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('create_method', 'varchar(16)', (c) => c.notNull().defaultTo('blank'))
    .addColumn('vcs_url', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('creator_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ops_playbook_org_creator_idx')
    .on('ops_playbook')
    .columns(['org_id', 'creator_id', 'date_created'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ops_playbook').execute();
}
