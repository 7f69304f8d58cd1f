import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { actorOf } from '../../resource/audit.ts';

/**
 * Writes one password change log row: whose password changed, who changed it (`System` when no
 * one is signed in: an automation or a reset link) and from where. Called by the one function
 * that stores users' passwords (`modules/users/setPassword.ts`), inside its transaction.
 */
export async function writePasswordChangeLog(
  db: Kysely<DB>,
  req: FastifyRequest | undefined,
  user: { id: string; name: string; username: string },
): Promise<void> {
  await db
    .insertInto('audits_passwordchangelog')
    .values({
      id: randomUUID(),
      user: `${user.name}(${user.username})`.slice(0, 128),
      user_id: user.id,
      change_by: (req ? actorOf(req) : 'System').slice(0, 128),
      remote_addr: req?.ip ?? '',
      datetime: new Date().toISOString(),
    })
    .execute();
}
