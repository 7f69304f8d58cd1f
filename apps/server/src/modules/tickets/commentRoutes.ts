import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { auditTicket } from './ticketAudit.ts';
import { km } from './ticketMessages.ts';
import { findTicket } from './ticketQueries.ts';
import { shape } from '../../resource/describe.ts';

/** `tickets/comments/?ticket_id=`: the comments of a ticket the caller applied for or is assigned to. */
const URL = '/api/v1/tickets/comments/';

export function registerCommentRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'tickets.view_ticket' } };
  const comment = shape('comment', {
    id: 'string',
    body: 'string',
    user: 'string',
    user_display: 'string',
    ticket: 'string',
    date_created: 'datetime',
    date_updated: 'datetime',
  });
  app.get(URL, { config: { ...view.config, describe: comment } }, async (req) => {
    const id = (req.query as Record<string, string | undefined>).ticket_id;
    if (!id) throw new ApiError(400, { ticket_id: [km(req.lang, 'ticket_id_required')] });
    await findTicket(req, id);
    const rows = await req.db
      .selectFrom('tickets_comment')
      .selectAll()
      .where('ticket_id', '=', id)
      .orderBy('date_created')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      body: r.body,
      user: r.user_id,
      user_display: r.user_display,
      ticket: r.ticket_id,
      date_created: r.date_created,
      date_updated: r.date_updated,
    }));
  });
  app.post(URL, view, async (req, reply) => {
    const body = (req.body ?? {}) as { ticket?: unknown; body?: unknown };
    const errors: Record<string, string[]> = {};
    if (typeof body.ticket !== 'string' || !body.ticket) errors.ticket = [km(req.lang, 'field_required')];
    const text = typeof body.body === 'string' ? body.body.trim() : '';
    if (!text) errors.body = [km(req.lang, 'comment_body_required')];
    if (Object.keys(errors).length) throw new ApiError(400, errors);
    const ticket = await findTicket(req, body.ticket as string);
    const now = new Date().toISOString();
    const row = {
      id: randomUUID(),
      ticket_id: ticket.id,
      user_id: req.user!.id,
      user_display: `${req.user!.name}(${req.user!.username})`,
      body: text.slice(0, 10000),
      date_created: now,
      date_updated: now,
    };
    await req.db.insertInto('tickets_comment').values(row).execute();
    await auditTicket(req.db, req, ticket, 'update', [{ field: 'comment', before: '', after: row.body.slice(0, 200) }]);
    return reply
      .code(201)
      .send({ ...row, ticket: row.ticket_id, user: row.user_id, ticket_id: undefined, user_id: undefined });
  });
}
