import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LoginAclRefusal } from '../acls/loginAcl.ts';
import { ta } from './authMessages.ts';
import { clearFlow, loadFlow, saveFlow, type AuthFlow } from './authFlow.ts';

/**
 * A sign-in held by a login rule with `review` (contract §2.3): the password is right, but the
 * sign-in waits on a login-confirm ticket. The tickets module registers the port that opens,
 * reads and closes those tickets; without it the rule refuses (`login_acl_review`).
 *
 * The pending sign-in is the auth flow (authFlow.ts) carrying the ticket's id. The client polls
 * `GET login-confirm-ticket/status/` (`{msg: "ok"}` once approved, else the `login_confirm_*`
 * answers) and then posts its credentials again: the same user with an approved ticket goes on
 * (to MFA if needed); a pending ticket answers `login_confirm_wait` again without a new ticket;
 * a rejected or closed one answers `login_confirm_error` and forgets the flow.
 * `DELETE login-confirm-ticket/status/` closes the ticket (the user gave up).
 */
export interface LoginReviewPort {
  open(req: FastifyRequest, r: { userId: string; ruleId: string; reviewers: string[] }): Promise<string>;
  /** The ticket's state: pending, approved, rejected, closed (a missing ticket is closed). */
  state(req: FastifyRequest, ticketId: string): Promise<string>;
  close(req: FastifyRequest, ticketId: string, userId: string): Promise<void>;
}

let port: LoginReviewPort | undefined;

/** Registers (or, with undefined, removes) the tickets behind login review. */
export function setLoginReviewer(p: LoginReviewPort | undefined): void {
  port = p;
}
export const loginReviewer = (): LoginReviewPort | undefined => port;

export type ReviewOutcome =
  | { ok: true }
  | {
      ok: false;
      error: 'login_confirm_wait' | 'login_confirm_error' | 'login_acl_review';
      msg: string;
      ticketId?: string;
    };

const stateText = (req: FastifyRequest, state: string) =>
  ta(req.lang, `login_confirm_state_${state === 'approved' || state === 'rejected' ? state : 'closed'}`);

/** What a review rule means for this sign-in, given the pending flow (if any) of this browser. */
export async function reviewSignIn(
  req: FastifyRequest,
  user: { id: string },
  acl: LoginAclRefusal,
): Promise<ReviewOutcome> {
  if (!port) return { ok: false, error: 'login_acl_review', msg: acl.msg };
  const flow = await loadFlow(req);
  if (flow?.userId === user.id && flow.confirmTicketId) {
    const state = await port.state(req, flow.confirmTicketId);
    if (state === 'approved') return { ok: true };
    if (state === 'pending' || state === 'reopen')
      return {
        ok: false,
        error: 'login_confirm_wait',
        msg: ta(req.lang, 'login_confirm_wait'),
        ticketId: flow.confirmTicketId,
      };
    await clearFlow(req);
    return {
      ok: false,
      error: 'login_confirm_error',
      msg: ta(req.lang, 'login_confirm_error', { state: stateText(req, state) }),
      ticketId: flow.confirmTicketId,
    };
  }
  const ticketId = await port.open(req, { userId: user.id, ruleId: acl.ruleId, reviewers: acl.reviewers });
  return { ok: false, error: 'login_confirm_wait', msg: ta(req.lang, 'login_confirm_wait'), ticketId };
}

/** Keeps the waiting sign-in (a new wait starts the flow's 10 minutes again). */
export async function saveWaitingFlow(
  req: FastifyRequest,
  reply: FastifyReply,
  flow: Omit<AuthFlow, 'at' | 'mfaOk'>,
): Promise<void> {
  await saveFlow(req, reply, { ...flow, mfaOk: false, at: Date.now() });
}

const STATUS_URL = '/api/v1/authentication/login-confirm-ticket/status/';

export function registerLoginConfirmRoutes(app: FastifyInstance): void {
  app.get(STATUS_URL, { config: { public: true } }, async (req, reply) => {
    const flow = await loadFlow(req);
    if (!port || !flow?.confirmTicketId)
      return reply.code(400).send({ error: 'login_confirm_error', msg: ta(req.lang, 'login_confirm_none') });
    const state = await port.state(req, flow.confirmTicketId);
    if (state === 'approved') return { msg: 'ok' };
    const data = { ticket_id: flow.confirmTicketId, username: flow.username };
    if (state === 'pending' || state === 'reopen')
      return { error: 'login_confirm_wait', msg: ta(req.lang, 'login_confirm_wait'), data };
    return {
      error: 'login_confirm_error',
      msg: ta(req.lang, 'login_confirm_error', { state: stateText(req, state) }),
      data,
    };
  });
  app.delete(STATUS_URL, { config: { public: true } }, async (req, reply) => {
    const flow = await loadFlow(req);
    if (!port || !flow?.confirmTicketId)
      return reply.code(400).send({ error: 'login_confirm_error', msg: ta(req.lang, 'login_confirm_none') });
    await port.close(req, flow.confirmTicketId, flow.userId);
    await clearFlow(req);
    return { msg: 'ok' };
  });
}
