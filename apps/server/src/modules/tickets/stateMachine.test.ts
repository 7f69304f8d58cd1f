import { describe, expect, it } from 'vitest';
import { TICKET_STATES, transition, type MachineInput, type TicketAction } from './stateMachine.ts';

/** Every edge of the ticket state machine (docs/tickets.md, "Tickets"), allowed and refused. */
const base = (over: Partial<MachineInput>): MachineInput => ({
  state: 'pending',
  approvalStep: 1,
  approvalLevel: 1,
  actor: { isApplicant: false, isCurrentAssignee: true },
  action: 'approve',
  ...over,
});
const ACTIONS: TicketAction[] = ['approve', 'reject', 'close'];

describe('ticket state machine', () => {
  it('approves a one-level ticket at once, and moves a two-level one to its second step first', () => {
    expect(transition(base({}))).toMatchObject({ ok: true, state: 'approved', status: 'closed', final: true });
    expect(transition(base({ approvalLevel: 2 }))).toMatchObject({
      ok: true,
      state: 'pending',
      status: 'open',
      approvalStep: 2,
      step: { state: 'approved', status: 'closed' },
      nextStepOpens: true,
      final: false,
    });
    expect(transition(base({ approvalLevel: 2, approvalStep: 2 }))).toMatchObject({ state: 'approved', final: true });
  });

  it('rejects on any step, and closes for the applicant or an assignee', () => {
    for (const step of [1, 2])
      expect(transition(base({ approvalLevel: 2, approvalStep: step, action: 'reject' }))).toMatchObject({
        state: 'rejected',
        status: 'closed',
        step: { state: 'rejected', status: 'closed' },
      });
    const applicant = { isApplicant: true, isCurrentAssignee: false };
    expect(transition(base({ action: 'close', actor: applicant }))).toMatchObject({ state: 'closed', final: true });
    expect(transition(base({ action: 'close' }))).toMatchObject({ state: 'closed', status: 'closed' });
  });

  it('refuses approve and reject to anyone but a current assignee, even the applicant', () => {
    const applicant = { isApplicant: true, isCurrentAssignee: false };
    for (const action of ['approve', 'reject'] as const)
      expect(transition(base({ action, actor: applicant }))).toEqual({ ok: false, error: 'not_assignee' });
    expect(transition(base({ action: 'close', actor: { isApplicant: false, isCurrentAssignee: false } }))).toEqual({
      ok: false,
      error: 'not_applicant_or_assignee',
    });
  });

  it('refuses every action on a decided ticket, whoever asks', () => {
    for (const state of TICKET_STATES.filter((s) => s !== 'pending' && s !== 'reopen'))
      for (const action of ACTIONS)
        expect(transition(base({ state, action, actor: { isApplicant: true, isCurrentAssignee: true } }))).toEqual({
          ok: false,
          error: 'ticket_closed',
        });
  });

  it('treats a reopened ticket as open', () => {
    expect(transition(base({ state: 'reopen' }))).toMatchObject({ ok: true, state: 'approved' });
  });
});
