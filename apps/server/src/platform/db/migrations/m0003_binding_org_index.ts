import type { Kysely } from 'kysely';

/** Org membership lookups (users of an org, every user list) filter role bindings by org and scope. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('rbac_rolebinding_org_idx')
    .on('rbac_rolebinding')
    .columns(['org_id', 'scope', 'user_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('rbac_rolebinding_org_idx').execute();
}
