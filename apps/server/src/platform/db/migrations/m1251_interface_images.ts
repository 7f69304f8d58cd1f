import type { Kysely } from 'kysely';

/**
 * Settings › Interface: the images that replace the built-in ones (favicon, logos, login image),
 * kept in the database (base64) so every instance serves the same ones.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('xpack_interface_image')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('xpack_interface_image').execute();
}
