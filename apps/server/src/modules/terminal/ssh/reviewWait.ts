import { loginAssetReviewer } from '../tokens/loginAssetReview.ts';
import type { NativeReviewPending } from './nativeAccessRules.ts';
import { sm } from './sshMessages.ts';

/**
 * The interactive wait on a login-asset ticket (menu and one-command login): says that approval is
 * needed, with the ticket's console link and its reviewers, then waits for the decision. Answers
 * true once approved; false when rejected or closed, or when `signal` aborts (Ctrl+C, or the client
 * went away): then the user gives the ticket up (closed by the applicant, as the login page's "give up").
 */
export async function waitForApproval(
  pending: NativeReviewPending,
  write: (s: string) => void,
  signal: AbortSignal,
): Promise<boolean> {
  const { ticket, ctx } = pending;
  const port = loginAssetReviewer();
  write(sm(ctx.lang, 'ssh_review_wait', { url: ticket.url, reviewers: ticket.reviewers.join(', ') }));
  if (!port) return false;
  const decision = await port.waitForDecision(ticket.ticket_id, signal);
  if (decision === undefined) {
    await port.giveUp(ctx, ticket.ticket_id);
    write(sm(ctx.lang, 'ssh_review_cancelled'));
    return false;
  }
  write(sm(ctx.lang, `ssh_review_${decision}`));
  return decision === 'approved';
}
