/**
 * The ticket lifecycle as a pure function (docs/tickets.md, "Tickets"): given a ticket's
 * state, its current step and who acts, `transition` answers the new ticket and step states or
 * why the action is refused. Routes apply the answer in one transaction.
 *
 *   pending --approve (assignee of step n < level)--> pending, step n+1 becomes active
 *   pending --approve (assignee of the last step)---> approved (status closed)
 *   pending --reject (assignee of the current step)-> rejected (status closed)
 *   pending --close (applicant or current assignee)-> closed   (status closed)
 *   approved | rejected | closed --any action-------> refused: "Ticket already closed"
 *
 * `reopen` is a state of the contract's enumeration that no action of v3.7.1 reaches; it is
 * accepted as "open" when read and never produced.
 */
export const TICKET_TYPES = [
  'general',
  'apply_asset',
  'login_confirm',
  'login_asset_confirm',
  'command_confirm',
] as const;
export type TicketType = (typeof TICKET_TYPES)[number];
export const TICKET_STATES = ['pending', 'closed', 'reopen', 'approved', 'rejected'] as const;
export type TicketState = (typeof TICKET_STATES)[number];
export type TicketStatus = 'open' | 'closed';
export type StepStatus = 'active' | 'closed' | 'pending';
export type TicketAction = 'approve' | 'reject' | 'close';

export interface MachineInput {
  state: TicketState;
  approvalStep: number;
  approvalLevel: number;
  actor: { isApplicant: boolean; isCurrentAssignee: boolean };
  action: TicketAction;
}

export type MachineAnswer =
  | { ok: false; error: 'ticket_closed' | 'not_assignee' | 'not_applicant_or_assignee' }
  | {
      ok: true;
      state: TicketState;
      status: TicketStatus;
      approvalStep: number;
      /** What becomes of the current step. */
      step: { state: TicketState; status: StepStatus };
      /** The next step opens (an intermediate approval). */
      nextStepOpens: boolean;
      /** The ticket is decided: an approval (apply the grant), a rejection or a close. */
      final: boolean;
    };

export const isOpen = (state: TicketState): boolean => state === 'pending' || state === 'reopen';

export function transition(i: MachineInput): MachineAnswer {
  if (!isOpen(i.state)) return { ok: false, error: 'ticket_closed' };
  if (i.action === 'close') {
    if (!i.actor.isApplicant && !i.actor.isCurrentAssignee) return { ok: false, error: 'not_applicant_or_assignee' };
    return done('closed', i.approvalStep);
  }
  if (!i.actor.isCurrentAssignee) return { ok: false, error: 'not_assignee' };
  if (i.action === 'reject') return done('rejected', i.approvalStep);
  if (i.approvalStep < i.approvalLevel)
    return {
      ok: true,
      state: 'pending',
      status: 'open',
      approvalStep: i.approvalStep + 1,
      step: { state: 'approved', status: 'closed' },
      nextStepOpens: true,
      final: false,
    };
  return done('approved', i.approvalStep);
}

function done(state: TicketState, step: number): MachineAnswer {
  return {
    ok: true,
    state,
    status: 'closed',
    approvalStep: step,
    step: { state, status: 'closed' },
    nextStepOpens: false,
    final: true,
  };
}
