import type { Kysely } from 'kysely';

/**
 * Key material every instance must present the same (the native SSH server's host key): kept in
 * the database, sealed by the secret box, so that instances with data folders of their own agree.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('terminal_sharedkey')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('terminal_sharedkey').execute();
}
