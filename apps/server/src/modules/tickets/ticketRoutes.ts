import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { metadata } from '../../resource/metadata.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { pageOf, type Query } from '../../resource/query.ts';
import { parseApplyAsset } from './applyAsset.ts';
import { levelsFor } from './assignees.ts';
import { notifyAssignees } from './notify.ts';
import type { TicketAction, TicketType } from './stateMachine.ts';
import { actOn, actOnAll, type Actor } from './ticketActions.ts';
import { auditTicket } from './ticketAudit.ts';
import { km } from './ticketMessages.ts';
import { filterTickets, findTicket, visibleTickets } from './ticketQueries.ts';
import { createTicket, serializeTickets } from './ticketStore.ts';
import { ticketListDef } from './ticketListMeta.ts';

/**
 * `/api/v1/tickets/`: `tickets/` lists every ticket the caller applied for or is assigned to; the
 * typed prefixes list their type, open (asset requests), approve, reject, close and bulk-act.
 * All need `tickets.view_ticket` (bulk: `tickets.change_ticket`); who may act on a ticket is the
 * state machine's (stateMachine.ts): the current step's assignees, and the applicant for close.
 */
const B = '/api/v1/tickets';
export const TYPED: Record<string, TicketType> = {
  'apply-asset-tickets': 'apply_asset',
  'apply-login-tickets': 'login_confirm',
  'apply-login-asset-tickets': 'login_asset_confirm',
  'apply-command-tickets': 'command_confirm',
};
const view = { config: { perm: 'tickets.view_ticket' } };
type IdReq = FastifyRequest<{ Params: { id: string } }>;

export const actorOf = (req: FastifyRequest): Actor => ({
  id: req.user!.id,
  display: `${req.user!.name}(${req.user!.username})`,
  lang: req.lang,
  via: req,
});

const ok = (reply: FastifyReply) => reply.type('application/json').send('"ok"');

async function list(req: FastifyRequest, type?: TicketType) {
  const q = filterTickets(req, visibleTickets(req, type));
  const page = pageOf(req.query as Query);
  if (!page) return serializeTickets(req.db, await q.execute(), req.lang);
  const count = Number(
    (
      await q
        .clearSelect()
        .clearOrderBy()
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );
  const rows = await q.limit(page.limit).offset(page.offset).execute();
  return pageOfResults(req, page, count, await serializeTickets(req.db, rows, req.lang));
}

async function detail(req: IdReq, type?: TicketType) {
  const [one] = await serializeTickets(req.db, [await findTicket(req, req.params.id, type)], req.lang);
  return one;
}

async function openApplyAsset(req: FastifyRequest, reply: FastifyReply) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (req.org.id === ROOT_ORG_ID) throw new ApiError(400, { detail: km(req.lang, 'root_org') });
  const errors: Record<string, string[]> = {};
  const title = typeof body.title === 'string' ? body.title.trim() : '';
  if (!title || title.length > 256) errors.title = [km(req.lang, title ? 'title_invalid' : 'field_required')];
  const comment = typeof body.comment === 'string' ? body.comment.slice(0, 4096) : '';
  const parsed = await parseApplyAsset(req.db, req.server.deps.settings, req.org.id, body, req.lang);
  if ('errors' in parsed) Object.assign(errors, parsed.errors);
  if (Object.keys(errors).length || 'errors' in parsed) throw new ApiError(400, errors);
  const levels = await levelsFor(req.db, req.org.id, 'apply_asset');
  const ticket = await createTicket(req.db, {
    type: 'apply_asset',
    title,
    comment,
    orgId: req.org.id,
    applicantId: req.user!.id,
    createdBy: req.user!.username,
    meta: { ...parsed.meta },
    metaOf: (id) => ({
      ...parsed.meta,
      apply_permission_name: km(req.lang, 'permission_name', { title, id: id.slice(0, 4) }),
    }),
    levels,
  });
  await auditTicket(req.db, req, ticket, 'create');
  await notifyAssignees(req.server, ticket, levels[0] ?? []);
  const [one] = await serializeTickets(req.db, [ticket], req.lang);
  return reply.code(201).send(one);
}

function registerActions(app: FastifyInstance, prefix: string, type?: TicketType): void {
  const act = (action: TicketAction) => async (req: IdReq, reply: FastifyReply) => {
    const ticket = await findTicket(req, req.params.id, type);
    await actOn(app, ticket, actorOf(req), action, (req.body ?? {}) as Record<string, unknown>);
    if (action !== 'approve') return ok(reply);
    const [one] = await serializeTickets(req.db, [await findTicket(req, ticket.id)], req.lang);
    return one;
  };
  if (type) {
    app.put(`${B}/${prefix}/:id/approve/`, view, act('approve'));
    app.patch(`${B}/${prefix}/:id/approve/`, view, act('approve'));
  }
  app.put(`${B}/${prefix}/:id/reject/`, view, act('reject'));
  app.put(`${B}/${prefix}/:id/close/`, view, act('close'));
  app.put(`${B}/${prefix}/bulk/`, { config: { perm: 'tickets.change_ticket' } }, async (req, reply) => {
    if (!type) throw new ApiError(405, { detail: km(req.lang, 'method_not_allowed') });
    const action = (req.query as Query).action;
    if (action !== 'approve' && action !== 'reject')
      throw new ApiError(400, { error: km(req.lang, 'bulk_action_invalid') });
    const ids = ((req.body ?? {}) as { tickets?: unknown }).tickets;
    if (!Array.isArray(ids) || !ids.length || ids.some((x) => typeof x !== 'string'))
      throw new ApiError(400, { error: km(req.lang, 'bulk_ids_required') });
    const unique = [...new Set(ids as string[])].slice(0, 1000);
    const rows = await visibleTickets(req, type).where('id', 'in', unique).execute();
    if (rows.length !== unique.length) throw new ApiError(400, { error: km(req.lang, 'bulk_ids_required') });
    await actOnAll(app, rows, actorOf(req), action);
    return ok(reply);
  });
}

export function registerTicketRoutes(app: FastifyInstance): void {
  app.options(`${B}/tickets/`, view, async (req) => metadata(ticketListDef, req.lang));
  app.get(`${B}/tickets/`, view, (req) => list(req));
  const described = { config: { ...view.config, describe: ticketListDef } };
  app.get(`${B}/tickets/:id/`, described, (req: IdReq) => detail(req));
  const refuse = async (req: FastifyRequest) => {
    throw new ApiError(405, { detail: km(req.lang, 'method_not_allowed') });
  };
  app.post(`${B}/tickets/`, view, refuse);
  for (const m of ['put', 'patch', 'delete'] as const) app[m](`${B}/tickets/:id/`, view, refuse);
  registerActions(app, 'tickets');
  for (const [prefix, type] of Object.entries(TYPED)) {
    app.get(`${B}/${prefix}/`, described, (req) => list(req, type));
    app.get(`${B}/${prefix}/:id/`, described, (req: IdReq) => detail(req, type));
    registerActions(app, prefix, type);
  }
  app.post(`${B}/apply-asset-tickets/open/`, view, openApplyAsset);
}
