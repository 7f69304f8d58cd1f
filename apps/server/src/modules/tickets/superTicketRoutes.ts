import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from './ticketRoutes.ts';
import { actOn } from './ticketActions.ts';
import { findTicket } from './ticketQueries.ts';
import { serializeTickets } from './ticketStore.ts';

/**
 * `super-tickets/<id>/status/`: how a ticket a connection waits on stands (`{id, status, state,
 * processor}`), and DELETE to give up (closes it). The contract gives these to components
 * (`tickets.*_superticket`); here the web terminal runs in-process and the waiting user polls, so
 * they serve the ticket's applicant and assignees (`tickets.view_ticket`), like the ticket itself.
 */
const URL = '/api/v1/tickets/super-tickets/:id/status/';
type IdReq = FastifyRequest<{ Params: { id: string } }>;

async function status(req: IdReq) {
  const [t] = await serializeTickets(req.db, [await findTicket(req, req.params.id)], req.lang);
  const steps = (t!.process_map as { processor_display: string }[]).filter((s) => s.processor_display);
  return { id: t!.id, status: t!.status, state: t!.state, processor: steps.at(-1)?.processor_display ?? '' };
}

export function registerSuperTicketRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'tickets.view_ticket' } };
  app.get(URL, view, status);
  app.delete(URL, view, async (req: IdReq) => {
    const ticket = await findTicket(req, req.params.id);
    await actOn(app, ticket, actorOf(req), 'close');
    return status(req);
  });
}
