import type { FastifyInstance } from 'fastify';
import { commandReviewer, setCommandReviewer, type CommandReviewer } from '../terminal/gateway/commandReview.ts';
import { levelsFor } from './assignees.ts';
import { notifyAssignees } from './notify.ts';
import { km } from './ticketMessages.ts';
import { createTicket } from './ticketStore.ts';
import { waitForDecision } from './waitForDecision.ts';

/**
 * A command held by a `review` command filter rule (terminal/gateway/commandReview.ts) becomes a
 * command-confirm ticket assigned to the rule's recipients; the gateway runs the command when the
 * ticket is approved and refuses it when rejected or closed. The user cancelling (Ctrl+C) or the
 * session ending closes the ticket.
 */
/** What a held command is: the session it was typed in, the rule that holds it and its recipients. */
export interface HeldCommand {
  sessionId: string;
  ruleId: string;
  command: string;
  orgId: string;
  userId: string;
  reviewers: string[];
  /** For a command of a job's execution (no terminal session): who, where and as whom. */
  labels?: { user: string; asset: string; account: string };
}

/** Opens the command-confirm ticket of a held command, assigned and notified; answers it and its first assignees. */
export async function openCommandTicket(app: FastifyInstance, r: HeldCommand) {
  const db = app.deps.database.db;
  const session =
    (await db
      .selectFrom('terminal_session')
      .select(['user', 'asset', 'account'])
      .where('id', '=', r.sessionId)
      .executeTakeFirst()) ?? r.labels;
  const rule = await db
    .selectFrom('acls_commandfilteracl')
    .select(['id', 'name'])
    .where('id', '=', r.ruleId)
    .executeTakeFirst();
  const levels = await levelsFor(db, r.orgId, 'command_confirm', r.reviewers);
  const ticket = await createTicket(db, {
    type: 'command_confirm',
    title: km('en', 'title_command_confirm', { command: r.command.slice(0, 200) }),
    orgId: r.orgId,
    applicantId: r.userId,
    createdBy: session?.user ?? '',
    meta: {
      apply_run_user: session?.user ?? '',
      apply_run_asset: session?.asset ?? '',
      apply_run_account: session?.account ?? '',
      apply_run_command: r.command,
      apply_from_session: { id: r.sessionId },
      apply_from_cmd_filter_acl: rule ?? { id: r.ruleId, name: '' },
    },
    levels,
  });
  await notifyAssignees(app, ticket, levels[0] ?? []);
  return { ticket, assignees: levels[0] ?? [] };
}

export function registerCommandConfirm(app: FastifyInstance): void {
  const db = app.deps.database.db;
  const reviewer: CommandReviewer = async (r) => {
    const { ticket } = await openCommandTicket(app, r);
    const state = await waitForDecision(db, ticket.id, r.signal);
    if (state === undefined) {
      // Cancelled by the user or the session's end: the ticket is no longer asked for.
      await db
        .updateTable('tickets_ticket')
        .set({ state: 'closed', status: 'closed', date_updated: new Date().toISOString() })
        .where('id', '=', ticket.id)
        .where('state', '=', 'pending')
        .execute();
      await db
        .updateTable('tickets_ticketstep')
        .set({ state: 'closed', status: 'closed' })
        .where('ticket_id', '=', ticket.id)
        .where('status', '!=', 'closed')
        .execute();
    }
    return state === 'approved' ? 'approved' : 'rejected';
  };
  setCommandReviewer(reviewer);
  app.addHook('onClose', async () => {
    if (commandReviewer() === reviewer) setCommandReviewer(undefined);
  });
}
