import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission, ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { effectivePerms } from '../../http/rbac.ts';
import { km } from './ticketMessages.ts';
import { actorOf } from './ticketRoutes.ts';
import { actOn } from './ticketActions.ts';
import { findTicket } from './ticketQueries.ts';
import { serializeTickets } from './ticketStore.ts';
import { shape } from '../../resource/describe.ts';

/**
 * `super-tickets/<id>/status/`: how a ticket a connection waits on stands (`{id, status, state,
 * processor}`), and DELETE to give up (closes it). The contract gives these to components
 * (`tickets.*_superticket`); here the web terminal runs in-process and the waiting user polls, so
 * they serve the ticket's applicant and assignees (`tickets.view_ticket`), like the ticket itself;
 * a holder of `tickets.view_superticket` (a component following the ticket it opened through
 * `acls/login-asset/check/`) reads the status of any login-asset or command ticket.
 */
const URL = '/api/v1/tickets/super-tickets/:id/status/';
type IdReq = FastifyRequest<{ Params: { id: string } }>;

async function componentTicket(req: IdReq) {
  const eff = await effectivePerms(req.db, req.user!.id, ROOT_ORG_ID);
  if (!eff.isSuperuser && !hasPermission(eff.perms, 'tickets.view_superticket')) return undefined;
  const row = await req.db
    .selectFrom('tickets_ticket')
    .selectAll()
    .where('id', '=', req.params.id)
    .where('type', 'in', ['login_asset_confirm', 'command_confirm'])
    .executeTakeFirst()
    .catch(() => undefined);
  if (!row) throw new ApiError(404, { detail: km(req.lang, 'not_found') });
  return row;
}

async function status(req: IdReq) {
  const ticket = (await componentTicket(req)) ?? (await findTicket(req, req.params.id));
  const [t] = await serializeTickets(req.db, [ticket], req.lang);
  const steps = (t!.process_map as { processor_display: string }[]).filter((s) => s.processor_display);
  return { id: t!.id, status: t!.status, state: t!.state, processor: steps.at(-1)?.processor_display ?? '' };
}

export function registerSuperTicketRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'tickets.view_ticket' } };
  app.get(
    URL,
    {
      config: {
        ...view.config,
        describe: shape('ticket', {
          id: 'string',
          status: 'labeled_choice',
          state: 'labeled_choice',
          processor: 'string',
        }),
      },
    },
    status,
  );
  app.delete(URL, view, async (req: IdReq) => {
    const ticket = await findTicket(req, req.params.id);
    await actOn(app, ticket, actorOf(req), 'close');
    return status(req);
  });
}
