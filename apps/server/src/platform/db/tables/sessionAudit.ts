import type { Bool } from '../schema.ts';

/** Who joined a running session and when (migration 0701): monitors today, shared sessions later. */
export interface SessionJoinRecordTable {
  id: string;
  session_id: string;
  joiner_id: string;
  /** Display string of the joiner, kept as the record outlives the user. */
  joiner_display: string;
  verify_code: string;
  /** readonly (monitor) | writable (a shared session, later). */
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
}

export interface SessionAuditTables {
  terminal_sessionjoinrecord: SessionJoinRecordTable;
}
