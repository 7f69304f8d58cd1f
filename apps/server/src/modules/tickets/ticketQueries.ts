import type { FastifyRequest } from 'fastify';
import { sql, type SelectQueryBuilder } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import type { DB } from '../../platform/db/schema.ts';
import { containsCi } from '../../resource/query.ts';
import { km } from './ticketMessages.ts';
import type { TicketRow } from './ticketStore.ts';

/**
 * Which tickets a user sees: those they applied for or are an assignee of (at any level), in
 * every org (the contract's list runs in the global org). Filters of the contract's list.
 */
type Q = SelectQueryBuilder<DB, 'tickets_ticket', TicketRow>;
type Params = Record<string, string | undefined>;

export function visibleTickets(req: FastifyRequest, type?: string): Q {
  const me = req.user!.id;
  let q = req.db
    .selectFrom('tickets_ticket')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('applicant_id', '=', me),
        eb('id', 'in', eb.selectFrom('tickets_ticketassignee').select('ticket_id').where('user_id', '=', me)),
      ]),
    );
  if (type) q = q.where('type', '=', type);
  return q;
}

export async function findTicket(req: FastifyRequest, id: string, type?: string): Promise<TicketRow> {
  const row = await visibleTickets(req, type).where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError(404, { detail: km(req.lang, 'not_found') });
  return row;
}

export function filterTickets(req: FastifyRequest, q: Q): Q {
  const p = req.query as Params;
  const ctx = { req, db: req.db };
  for (const k of ['id', 'type', 'status', 'state'] as const) if (p[k]) q = q.where(k, '=', p[k]);
  if (p.title) q = q.where(containsCi(ctx, 'tickets_ticket.title', p.title));
  if (p.applicant) q = q.where('applicant_id', '=', p.applicant);
  const assignee = p.assignees__id;
  if (assignee)
    q = q.where('id', 'in', (eb) =>
      eb
        .selectFrom('tickets_ticketassignee as a')
        .innerJoin('tickets_ticket as t', 't.id', 'a.ticket_id')
        .select('a.ticket_id')
        .where('a.user_id', '=', assignee)
        .whereRef('a.level', '=', 't.approval_step'),
    );
  for (const k of ['relevant_asset', 'relevant_command'] as const)
    if (p[k]) q = q.where(containsCi(ctx, 'tickets_ticket.meta', p[k]));
  const s = p.search?.trim();
  if (s)
    q = q.where((eb) =>
      eb.or(['title', 'type', 'status', 'serial_num'].map((c) => containsCi(ctx, `tickets_ticket.${c}`, s))),
    );
  const order = p.order?.replace(/^-/, '');
  const desc = !p.order || p.order.startsWith('-');
  const col =
    order && ['date_created', 'date_updated', 'title', 'serial_num', 'state', 'type'].includes(order)
      ? order
      : 'date_created';
  return q.orderBy(sql.ref(`tickets_ticket.${col}`), desc ? 'desc' : 'asc').orderBy('tickets_ticket.id');
}
