import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { BUILTIN_PLATFORMS_0151 } from './m0151_builtin_platforms.data.ts';

/** The builtin (internal) platforms with their protocols, from the frozen data beside this file. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();
  for (const pl of BUILTIN_PLATFORMS_0151) {
    await db
      .insertInto('assets_platform')
      .values({
        id: pl.id,
        name: pl.name,
        category: pl.category,
        type: pl.type,
        internal: pl.internal,
        charset: 'utf-8',
        domain_enabled: pl.domain_enabled,
        su_enabled: pl.su_enabled,
        su_method: pl.su_method,
        automation: '{}',
        custom_fields: '[]',
        comment: '',
        created_by: 'System',
        updated_by: 'System',
        date_created: now,
        date_updated: now,
      })
      .execute();
    await db
      .insertInto('assets_platformprotocol')
      .values(
        pl.protocols.map((pr, i) => ({
          id: randomUUID(),
          platform_id: pl.id,
          name: pr.name,
          port: pr.port,
          primary: pr.primary,
          required: pr.required,
          default: pr.default,
          public: true,
          setting: JSON.stringify(pr.setting),
          position: i,
        })),
      )
      .execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('assets_platform').where('internal', '=', true).execute();
}
