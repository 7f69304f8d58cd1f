import type { Bool } from '../schema.ts';

/** Who joined a running session and when (migration 0701): monitors and shared sessions. */
export interface SessionJoinRecordTable {
  id: string;
  session_id: string;
  joiner_id: string;
  /** Display string of the joiner, kept as the record outlives the user. */
  joiner_display: string;
  verify_code: string;
  /** readonly (a monitor, a read-only sharing) | writable (a writable sharing). */
  action_permission: string;
  remote_addr: string;
  login_from: string;
  is_success: Bool;
  reason: string;
  is_finished: Bool;
  date_joined: string;
  date_left: string | null;
  created_by: string;
  date_created: string;
  date_updated: string;
  org_id: string;
  /** The sharing joined through (migration 0930); null for a monitor. */
  sharing_id: string | null;
}

/** An invitation to a running session by link and verify code (migration 0930). */
export interface SessionSharingTable {
  id: string;
  session_id: string;
  creator_id: string;
  verify_code: string;
  is_active: Bool;
  /** Minutes from date_created. */
  expired_time: number;
  /** JSON list of the invited user ids; empty: any member of the session's org. */
  users: string;
  action_permission: string;
  origin: string;
  /** Wrong verify codes so far; the sharing stops at SHARING_MAX_FAILURES. */
  failed_attempts: number;
  created_by: string;
  date_created: string;
  date_updated: string;
  org_id: string;
}

export interface SessionAuditTables {
  terminal_sessionjoinrecord: SessionJoinRecordTable;
  terminal_sessionsharing: SessionSharingTable;
}
