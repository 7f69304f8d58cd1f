/**
 * The port through which a held command (a `review` command filter rule) gets its answer: the
 * tickets module registers a reviewer that opens a command-confirm ticket and resolves when it is
 * approved or rejected. Until one is registered a held command waits until the user cancels it
 * with Ctrl+C or the session ends. `signal` aborts when the user cancels or the session ends.
 */
export interface CommandReviewRequest {
  sessionId: string;
  command: string;
  ruleId: string;
  reviewers: string[];
  userId: string;
  orgId: string;
  assetId: string;
  accountId: string;
  signal: AbortSignal;
  /** Who, where and as whom, when `sessionId` names no terminal session (a job's execution). */
  labels?: { user: string; asset: string; account: string };
}

export type CommandReviewer = (request: CommandReviewRequest) => Promise<'approved' | 'rejected'>;

let reviewer: CommandReviewer | undefined;

/** Registers (or, with undefined, removes) the reviewer of held commands. */
export function setCommandReviewer(fn: CommandReviewer | undefined): void {
  reviewer = fn;
}

export function commandReviewer(): CommandReviewer | undefined {
  return reviewer;
}
