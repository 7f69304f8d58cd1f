import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

/**
 * Waits until a ticket is decided (approved, rejected or closed) or `signal` aborts, reading its
 * state every `everyMs`: the decision may come from any instance, and the database is what they
 * share. Answers the final state, or undefined when aborted first.
 */
export async function waitForDecision(
  db: Kysely<DB>,
  ticketId: string,
  signal: AbortSignal,
  everyMs = 500,
): Promise<string | undefined> {
  while (!signal.aborted) {
    const row = await db.selectFrom('tickets_ticket').select('state').where('id', '=', ticketId).executeTakeFirst();
    if (!row) return 'closed';
    if (row.state !== 'pending' && row.state !== 'reopen') return row.state;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, everyMs);
      signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
    });
  }
  return undefined;
}
