import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';

/**
 * The port through which a login-asset rule with `review` becomes a wait on a ticket (the tickets
 * module registers it, as `gateway/commandReview.ts` for commands). A connection token asked with
 * `?create_ticket=1` opens (or reuses) a login-asset ticket and answers 400 `acl_review` with where
 * to follow it; once approved, tokens for that user, asset and account pass for the approval's
 * window (the tickets module decides it), at creation and when spent. Without the port the rule
 * refuses as before. The session such a token opens is told to the port (`recordReviewedSession`),
 * so the ticket shows it and its reviewer may watch it (`../ticketSessionAccess.ts`).
 */
export interface LoginAssetSituation {
  userId: string;
  assetId: string;
  orgId: string;
  account: string;
  ruleId: string;
  reviewers: string[];
}

export interface LoginAssetReviewPort {
  /** The id of the approved ticket that lets this connection through, if any. */
  approved(req: FastifyRequest, s: LoginAssetSituation): Promise<string | undefined>;
  /** Opens or reuses the pending ticket; answers what the client needs to follow it. */
  open(req: FastifyRequest, s: LoginAssetSituation): Promise<Record<string, unknown>>;
  /** A session opened with a token the ticket let through has started. */
  sessionStarted(ticketId: string, sessionId: string): Promise<void>;
}

let port: LoginAssetReviewPort | undefined;

export function setLoginAssetReviewer(p: LoginAssetReviewPort | undefined): void {
  port = p;
}
export const loginAssetReviewer = (): LoginAssetReviewPort | undefined => port;

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
  const approved = await port.approved(req, s);
  if (approved) return approved;
  const wanted = (req.query as Record<string, unknown> | undefined)?.create_ticket;
  if (wanted !== '1' && wanted !== 'true') throw refusal;
  throw new ApiError(400, { ...(refusal.body as object), ...(await port.open(req, s)) });
}

/** Tells the ticket that let a connection through which session it opened. */
export async function recordReviewedSession(ticketId: string | undefined, sessionId: string): Promise<void> {
  if (ticketId && port) await port.sessionStarted(ticketId, sessionId);
}
