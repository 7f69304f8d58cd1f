import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { toBool } from '../../platform/db/schema.ts';
import { gatewayOf } from '../terminal/gatewayInstance.ts';
import { km } from './ticketMessages.ts';
import { findTicket } from './ticketQueries.ts';
import { isCurrentAssignee, SESSION_TICKET_TYPES, ticketSessionId } from './ticketSession.ts';
import type { TicketRow } from './ticketStore.ts';
import { shape } from '../../resource/describe.ts';

/**
 * The session of a command-confirm or login-asset ticket (`ticketSession.ts`), for its reviewers
 * (the current step's assignees) without `terminal.terminate_session`:
 * - `tickets/<id>/session/` GET its state (applicant and assignees), POST `{action: lock | unlock |
 *   kill}` (reviewers) to pause, resume or end it while it runs;
 * - the contract's `terminal/tasks/kill-session-for-ticket/?ticket_id=` (`[session ids]`) and
 *   `toggle-lock-session-for-ticket/?ticket_id=` (`{session_id, task_name}`), the same for the
 *   monitor page opened from the ticket; only the ticket's own session is acted on.
 * Orders go through the gateway's bus, as the terminal's session tasks.
 */
const URL = '/api/v1/tickets/tickets/:id/session/';
type IdReq = FastifyRequest<{ Params: { id: string } }>;
type Action = 'lock' | 'unlock' | 'kill';

async function sessionOf(req: FastifyRequest, ticket: TicketRow) {
  const sessionId = ticketSessionId(ticket);
  const row = sessionId
    ? await req.db
        .selectFrom('terminal_session')
        .select(['id', 'is_finished', 'is_locked', 'user', 'asset', 'account', 'date_start'])
        .where('id', '=', sessionId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError(404, { detail: km(req.lang, 'session_not_found') });
  return { ...row, is_finished: toBool(row.is_finished), is_locked: toBool(row.is_locked) };
}

async function sessionTicket(req: FastifyRequest, id: string): Promise<TicketRow> {
  const ticket = await findTicket(req, id);
  if (!SESSION_TICKET_TYPES.includes(ticket.type))
    throw new ApiError(404, { detail: km(req.lang, 'session_not_found') });
  return ticket;
}

/** Acts on the ticket's session as one of its reviewers; answers the contract's `{ok: [ids]}`. */
async function act(app: FastifyInstance, req: FastifyRequest, ticket: TicketRow, action: Action) {
  const session = await sessionOf(req, ticket);
  if (!(await isCurrentAssignee(req.db, ticket, req.user!.id)))
    throw new ApiError(403, { detail: km(req.lang, 'not_assignee') });
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
}

/** The ticket named by `?ticket_id=` (or the body's `ticket_id`) of the for-ticket task routes. */
async function queryTicket(req: FastifyRequest): Promise<TicketRow> {
  const q = req.query as Record<string, unknown>;
  const b = (req.body && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
  const id = typeof q.ticket_id === 'string' ? q.ticket_id : typeof b.ticket_id === 'string' ? b.ticket_id : '';
  if (!id) throw new ApiError(400, { ticket_id: [km(req.lang, 'ticket_id_required')] });
  return sessionTicket(req, id);
}

function sameSession(req: FastifyRequest, ticket: TicketRow, ids: unknown[]): void {
  if (!ids.length || ids.some((x) => x !== ticketSessionId(ticket)))
    throw new ApiError(404, { detail: km(req.lang, 'session_not_found') });
}

export function registerSessionControlRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'tickets.view_ticket' } };
  const session = shape('session', {
    id: 'string',
    is_finished: 'boolean',
    is_locked: 'boolean',
    user: 'string',
    asset: 'string',
    account: 'string',
    date_start: 'datetime',
  });
  app.get(URL, { config: { ...view.config, describe: session } }, async (req: IdReq) =>
    sessionOf(req, await sessionTicket(req, req.params.id)),
  );
  app.post(URL, view, async (req: IdReq) => {
    const action = ((req.body ?? {}) as { action?: unknown }).action;
    if (action !== 'lock' && action !== 'unlock' && action !== 'kill')
      throw new ApiError(400, { action: [km(req.lang, 'session_action_invalid')] });
    return act(app, req, await sessionTicket(req, req.params.id), action);
  });
  app.post('/api/v1/terminal/tasks/kill-session-for-ticket/', view, async (req) => {
    const ticket = await queryTicket(req);
    const ids = Array.isArray(req.body) ? (req.body as unknown[]) : [];
    sameSession(req, ticket, ids);
    return act(app, req, ticket, 'kill');
  });
  app.post('/api/v1/terminal/tasks/toggle-lock-session-for-ticket/', view, async (req) => {
    const ticket = await queryTicket(req);
    const body = (req.body ?? {}) as { session_id?: unknown; task_name?: unknown };
    if (body.task_name !== 'lock_session' && body.task_name !== 'unlock_session')
      throw new ApiError(400, { task_name: [km(req.lang, 'task_name_invalid')] });
    sameSession(req, ticket, [body.session_id]);
    return act(app, req, ticket, body.task_name === 'lock_session' ? 'lock' : 'unlock');
  });
}
