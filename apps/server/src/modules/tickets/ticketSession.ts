import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import {
  setTicketSessionAccess,
  ticketSessionAccess,
  type TicketSessionAccess,
} from '../terminal/ticketSessionAccess.ts';
import type { TicketRow } from './ticketStore.ts';

/**
 * The session a ticket is about: a command-confirm ticket's `apply_from_session` (the session the
 * command was held in) or the session a login-asset ticket's approval let through (recorded when it
 * started, `loginAssetConfirm.ts`). Its reviewers — the current step's assignees — watch, pause and
 * end it; the port `terminal/ticketSessionAccess.ts` answers the monitor socket the same way.
 */
export const SESSION_TICKET_TYPES = ['command_confirm', 'login_asset_confirm'];

export function ticketSessionId(ticket: Pick<TicketRow, 'type' | 'meta'>): string | undefined {
  if (!SESSION_TICKET_TYPES.includes(ticket.type)) return undefined;
  const id = (JSON.parse(ticket.meta) as { apply_from_session?: { id?: unknown } }).apply_from_session?.id;
  return typeof id === 'string' && id ? id : undefined;
}

/** Whether the user is an assignee of the ticket's current step. */
export async function isCurrentAssignee(
  db: Kysely<DB>,
  ticket: Pick<TicketRow, 'id' | 'approval_step'>,
  userId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('tickets_ticketassignee')
    .select('user_id')
    .where('ticket_id', '=', ticket.id)
    .where('level', '=', ticket.approval_step)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(row);
}

export function registerTicketSessionAccess(app: FastifyInstance): void {
  const db = app.deps.database.db;
  const access: TicketSessionAccess = async ({ userId, sessionId, ticketId }) => {
    const ticket = await db
      .selectFrom('tickets_ticket')
      .select(['id', 'type', 'meta', 'approval_step'])
      .where('id', '=', ticketId)
      .executeTakeFirst();
    if (!ticket || ticketSessionId(ticket) !== sessionId) return false;
    return isCurrentAssignee(db, ticket, userId);
  };
  setTicketSessionAccess(access);
  app.addHook('onClose', async () => {
    if (ticketSessionAccess() === access) setTicketSessionAccess(undefined);
  });
}
