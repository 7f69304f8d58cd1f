import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import type { DB } from '../../platform/db/schema.ts';
import { grantFromTicket, parseApplyAsset, type ApplyAssetMeta } from './applyAsset.ts';
import { notifyApplicant, notifyAssignees } from './notify.ts';
import type { OperationActor } from '../../resource/audit.ts';
import { auditTicket } from './ticketAudit.ts';
import { transition, type TicketAction, type TicketState } from './stateMachine.ts';
import { km } from './ticketMessages.ts';
import { assigneesAt, type TicketRow } from './ticketStore.ts';

/**
 * Applying an action to tickets: the state machine decides, one transaction writes the ticket,
 * its step and (final approval of an asset request) the permission; the update is conditional on
 * the state and step read, so two approvers racing act once. Messages go out afterwards.
 */
export interface Actor {
  id: string;
  display: string;
  lang: Language;
  /** The request (or native SSH connection) acted through: the decision goes to the operate log under it. */
  via?: FastifyRequest | OperationActor;
}

type Prepared = {
  ticket: TicketRow;
  answer: Extract<ReturnType<typeof transition>, { ok: true }>;
  meta?: ApplyAssetMeta;
};

const REFUSAL_STATUS = { ticket_closed: 400, not_assignee: 403, not_applicant_or_assignee: 403 } as const;

async function prepare(
  app: FastifyInstance,
  db: Kysely<DB>,
  ticket: TicketRow,
  actor: Actor,
  action: TicketAction,
  edits?: Record<string, unknown>,
): Promise<Prepared> {
  const current = await assigneesAt(db, ticket.id, Number(ticket.approval_step));
  const answer = transition({
    state: ticket.state as TicketState,
    approvalStep: Number(ticket.approval_step),
    approvalLevel: Number(ticket.approval_level),
    actor: { isApplicant: ticket.applicant_id === actor.id, isCurrentAssignee: current.includes(actor.id) },
    action,
  });
  if (!answer.ok) throw new ApiError(REFUSAL_STATUS[answer.error], { detail: km(actor.lang, answer.error) });
  let meta: ApplyAssetMeta | undefined;
  if (ticket.type === 'apply_asset' && action === 'approve' && answer.final) {
    const stored = JSON.parse(ticket.meta) as ApplyAssetMeta;
    // Approvers may edit the grant on the final step only; earlier steps pass the request on as it is.
    const parsed = await parseApplyAsset(db, app.deps.settings, ticket.org_id, edits ?? {}, actor.lang, stored);
    if ('errors' in parsed) throw new ApiError(400, parsed.errors);
    meta = parsed.meta;
  }
  return { ticket, answer, meta };
}

async function write(tx: Kysely<DB>, p: Prepared, actor: Actor): Promise<boolean> {
  const { ticket, answer } = p;
  const now = new Date().toISOString();
  const step = Number(ticket.approval_step);
  const res = await tx
    .updateTable('tickets_ticket')
    .set({
      state: answer.state,
      status: answer.status,
      approval_step: answer.approvalStep,
      updated_by: actor.display,
      date_updated: now,
      ...(p.meta ? { meta: JSON.stringify(p.meta) } : {}),
    })
    .where('id', '=', ticket.id)
    .where('state', 'in', ['pending', 'reopen'])
    .where('approval_step', '=', step)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await tx
    .updateTable('tickets_ticketstep')
    .set({ ...answer.step, processor_id: actor.id, processor_display: actor.display, approval_date: now })
    .where('ticket_id', '=', ticket.id)
    .where('level', '=', step)
    .execute();
  await tx
    .updateTable('tickets_ticketstep')
    .set({ status: answer.nextStepOpens ? 'active' : 'closed' })
    .where('ticket_id', '=', ticket.id)
    .where('level', answer.nextStepOpens ? '=' : '>', step + (answer.nextStepOpens ? 1 : 0))
    .execute();
  if (p.meta && answer.state === 'approved') await grantFromTicket(tx, { ...ticket }, p.meta, actor.display);
  return true;
}

async function announce(app: FastifyInstance, p: Prepared, actor: Actor): Promise<void> {
  const { ticket, answer } = p;
  if (actor.via)
    await auditTicket(app.deps.database.db, actor.via, ticket, 'update', [
      { field: 'state', before: ticket.state, after: answer.state },
      { field: 'approval_step', before: String(ticket.approval_step), after: String(answer.approvalStep) },
    ]);
  if (p.answer.nextStepOpens)
    await notifyAssignees(app, p.ticket, await assigneesAt(app.deps.database.db, p.ticket.id, p.answer.approvalStep));
  else if (p.answer.state !== 'closed' || p.ticket.applicant_id !== actor.id)
    await notifyApplicant(app, p.ticket, p.answer.state, actor.display);
}

/** One ticket: throws the refusal as an ApiError. */
export async function actOn(
  app: FastifyInstance,
  ticket: TicketRow,
  actor: Actor,
  action: TicketAction,
  edits?: Record<string, unknown>,
): Promise<void> {
  const db = app.deps.database.db;
  const p = await prepare(app, db, ticket, actor, action, edits);
  const done = await db.transaction().execute((tx) => write(tx, p, actor));
  if (!done) throw new ApiError(400, { detail: km(actor.lang, 'ticket_closed') });
  await announce(app, p, actor);
}

/**
 * Several tickets at once (bulk approve/reject): each must be open and the actor its current
 * assignee, else nothing changes and the answer names the first ticket refused.
 */
export async function actOnAll(
  app: FastifyInstance,
  tickets: TicketRow[],
  actor: Actor,
  action: TicketAction,
): Promise<void> {
  const db = app.deps.database.db;
  const prepared: Prepared[] = [];
  for (const t of tickets) {
    try {
      prepared.push(await prepare(app, db, t, actor, action));
    } catch {
      throw new ApiError(400, { error: km(actor.lang, 'bulk_not_allowed', { serial: t.serial_num }) });
    }
  }
  await db.transaction().execute(async (tx) => {
    for (const p of prepared)
      if (!(await write(tx, p, actor)))
        throw new ApiError(400, { error: km(actor.lang, 'bulk_not_allowed', { serial: p.ticket.serial_num }) });
  });
  for (const p of prepared) await announce(app, p, actor);
}
