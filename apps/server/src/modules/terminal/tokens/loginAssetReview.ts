import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';

/**
 * The port through which a login-asset rule with `review` becomes a wait on a ticket (the tickets
 * module registers it, as `gateway/commandReview.ts` for commands). A connection token asked with
 * `?create_ticket=1` opens (or reuses) a login-asset ticket and answers 400 `acl_review` with where
 * to follow it; once approved, tokens for that user, asset and account pass for the approval's
 * window (the tickets module decides it), at creation and when spent. Without the port the rule
 * refuses as before.
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
  approved(req: FastifyRequest, s: LoginAssetSituation): Promise<boolean>;
  /** Opens or reuses the pending ticket; answers what the client needs to follow it. */
  open(req: FastifyRequest, s: LoginAssetSituation): Promise<Record<string, unknown>>;
}

let port: LoginAssetReviewPort | undefined;

export function setLoginAssetReviewer(p: LoginAssetReviewPort | undefined): void {
  port = p;
}
export const loginAssetReviewer = (): LoginAssetReviewPort | undefined => port;

/** Passes when approved; else throws `refusal`, with the ticket's details when asked to create one. */
export async function reviewLoginAsset(req: FastifyRequest, s: LoginAssetSituation, refusal: ApiError): Promise<void> {
  if (!port) throw refusal;
  if (await port.approved(req, s)) return;
  const wanted = (req.query as Record<string, unknown> | undefined)?.create_ticket;
  if (wanted !== '1' && wanted !== 'true') throw refusal;
  throw new ApiError(400, { ...(refusal.body as object), ...(await port.open(req, s)) });
}
