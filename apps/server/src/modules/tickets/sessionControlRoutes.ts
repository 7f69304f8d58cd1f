import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { toBool } from '../../platform/db/schema.ts';
import { gatewayOf } from '../terminal/gatewayInstance.ts';
import { km } from './ticketMessages.ts';
import { findTicket } from './ticketQueries.ts';

/**
 * `tickets/<id>/session/`: the session a command-confirm ticket came from, for the ticket's
 * assignees (any level) without `terminal.terminate_session`: GET its state, POST `{action: lock |
 * unlock | kill}` to pause, resume or end it while it runs (through the gateway's bus, as the
 * session tasks of the terminal module). The applicant reads it but does not act on it.
 */
const URL = '/api/v1/tickets/tickets/:id/session/';
type IdReq = FastifyRequest<{ Params: { id: string } }>;

async function sessionOf(req: IdReq) {
  const ticket = await findTicket(req, req.params.id, 'command_confirm');
  const sessionId = (JSON.parse(ticket.meta) as { apply_from_session?: { id?: string } }).apply_from_session?.id;
  const row = sessionId
    ? await req.db
        .selectFrom('terminal_session')
        .select(['id', 'is_finished', 'is_locked', 'user', 'asset', 'account', 'date_start'])
        .where('id', '=', sessionId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError(404, { detail: km(req.lang, 'session_not_found') });
  const assignee = await req.db
    .selectFrom('tickets_ticketassignee')
    .select('user_id')
    .where('ticket_id', '=', ticket.id)
    .where('user_id', '=', req.user!.id)
    .executeTakeFirst();
  return {
    session: { ...row, is_finished: toBool(row.is_finished), is_locked: toBool(row.is_locked) },
    assignee: Boolean(assignee),
  };
}

export function registerSessionControlRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'tickets.view_ticket' } };
  app.get(URL, view, async (req: IdReq) => (await sessionOf(req)).session);
  app.post(URL, view, async (req: IdReq) => {
    const action = ((req.body ?? {}) as { action?: unknown }).action;
    if (action !== 'lock' && action !== 'unlock' && action !== 'kill')
      throw new ApiError(400, { action: [km(req.lang, 'session_action_invalid')] });
    const { session, assignee } = await sessionOf(req);
    if (!assignee) throw new ApiError(403, { detail: km(req.lang, 'not_assignee') });
    if (session.is_finished) throw new ApiError(400, { detail: km(req.lang, 'session_finished') });
    const registry = gatewayOf(app).registry;
    if (action === 'kill') await registry.kill([session.id], req.user!.username);
    else {
      await req.db
        .updateTable('terminal_session')
        .set({ is_locked: action === 'lock' })
        .where('id', '=', session.id)
        .execute();
      await registry.lock([session.id], action === 'lock', req.user!.username);
    }
    return { ok: [session.id] };
  });
}
