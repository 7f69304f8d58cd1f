import type { FastifyRequest } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';

/**
 * The port through which a login-asset rule with `review` becomes a wait on a ticket (the tickets
 * module registers it, as `gateway/commandReview.ts` for commands). A connection token asked with
 * `?create_ticket=1` opens (or reuses) a login-asset ticket and answers 400 `acl_review` with where
 * to follow it; once approved, tokens for that user, asset and account pass for the approval's
 * window (the tickets module decides it), at creation and when spent. The native SSH server
 * (`../ssh/nativeAccessRules.ts`) opens the same ticket and waits on it (`waitForDecision`), or
 * gives it up for the user (`giveUp`). Without the port the rule refuses as before. The session a
 * reviewed connection opens is told to the port (`recordReviewedSession`), so the ticket shows it
 * and its reviewer may watch it (`../ticketSessionAccess.ts`).
 */
export interface LoginAssetSituation {
  userId: string;
  assetId: string;
  orgId: string;
  account: string;
  ruleId: string;
  reviewers: string[];
}

/** Who asks, whatever the front end (an HTTP request, a native SSH connection). */
export interface ReviewContext {
  userId: string;
  ip: string;
  lang: Language;
}

/** How to follow a review ticket. */
export interface ReviewTicket {
  ticket_id: string;
  check_review_status: { method: string; url: string };
  close_review: { method: string; url: string };
  /** The console's page of the ticket (a path below SITE_URL). */
  ticket_detail_url: string;
  /** `name(username)` of the current step's assignees. */
  reviewers: string[];
}

export type ReviewDecision = 'approved' | 'rejected' | 'closed';

export interface LoginAssetReviewPort {
  /** The id of the approved ticket that lets this connection through, if any. */
  approved(ctx: ReviewContext, s: LoginAssetSituation): Promise<string | undefined>;
  /** Opens or reuses the pending ticket; answers what the client needs to follow it. */
  open(ctx: ReviewContext, s: LoginAssetSituation): Promise<ReviewTicket>;
  /** Waits until the ticket is decided; undefined when `signal` aborts first. */
  waitForDecision(ticketId: string, signal: AbortSignal): Promise<ReviewDecision | undefined>;
  /** The applicant gives up: the pending ticket is closed by them. */
  giveUp(ctx: ReviewContext, ticketId: string): Promise<void>;
  /** A session opened with a token the ticket let through has started. */
  sessionStarted(ticketId: string, sessionId: string): Promise<void>;
}

let port: LoginAssetReviewPort | undefined;

export function setLoginAssetReviewer(p: LoginAssetReviewPort | undefined): void {
  port = p;
}
export const loginAssetReviewer = (): LoginAssetReviewPort | undefined => port;

/** The context of an HTTP request made as `userId` (the caller, or the user a component names). */
export const reviewContextOf = (req: FastifyRequest, userId: string): ReviewContext => ({
  userId,
  ip: req.ip,
  lang: req.lang,
});

/**
 * Answers the approved ticket's id when approved; else throws `refusal`, with the ticket's details
 * when asked to create one.
 */
export async function reviewLoginAsset(
  req: FastifyRequest,
  s: LoginAssetSituation,
  refusal: ApiError,
): Promise<string> {
  if (!port) throw refusal;
  const ctx = reviewContextOf(req, s.userId);
  const approved = await port.approved(ctx, s);
  if (approved) return approved;
  const wanted = (req.query as Record<string, unknown> | undefined)?.create_ticket;
  if (wanted !== '1' && wanted !== 'true') throw refusal;
  throw new ApiError(400, { ...(refusal.body as object), ...(await port.open(ctx, s)) });
}

/** Tells the ticket that let a connection through which session it opened. */
export async function recordReviewedSession(ticketId: string | undefined, sessionId: string): Promise<void> {
  if (ticketId && port) await port.sessionStarted(ticketId, sessionId);
}
