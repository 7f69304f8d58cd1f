import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../src/platform/db/schema.ts';

/** A custom (not builtin) role of `scope` holding `permissions`, written straight to the tables; answers its id. */
export async function customRole(
  db: Kysely<DB>,
  name: string,
  scope: 'system' | 'org',
  permissions: readonly string[],
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('rbac_role')
    .values({
      id,
      name,
      scope,
      builtin: false,
      comment: '',
      created_by: 'test',
      updated_by: 'test',
      date_created: now,
      date_updated: now,
    })
    .execute();
  if (permissions.length)
    await db
      .insertInto('rbac_role_permission')
      .values(permissions.map((permission) => ({ role_id: id, permission })))
      .execute();
  return id;
}
