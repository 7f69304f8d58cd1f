import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { recordOperation, type DiffItem, type OperateAction, type OperationActor } from '../../resource/audit.ts';
import { ticketListDef } from './ticketListMeta.ts';

/**
 * Ticket writes in the operate log (`resource/audit.ts`): opening a ticket (create), each decision
 * of the state machine (update, the state and step it moved), comments and flow edits, named by the
 * ticket's title (or the flow's type) in the ticket's org. `who` is the request, or the user of a
 * native SSH connection (`loginAssetConfirm.ts`).
 */
export async function auditTicket(
  db: Kysely<DB>,
  who: FastifyRequest | OperationActor,
  ticket: { id: string; title: string; org_id: string },
  action: OperateAction,
  diff: DiffItem[] = [],
  model: 'ticket' | 'ticketflow' = 'ticket',
): Promise<void> {
  await recordOperation(db, who, {
    action,
    def: model === 'ticket' ? ticketListDef : { ...ticketListDef, model },
    resourceId: ticket.id,
    resourceName: ticket.title,
    orgId: ticket.org_id,
    diff,
  });
}
