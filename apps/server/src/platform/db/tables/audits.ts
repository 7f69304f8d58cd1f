import type { Bool } from '../schema.ts';

/** Audit logs beyond the operate/activity logs (migration 0010). */
export interface UserLoginLogTable {
  id: string;
  username: string;
  /** W web, T terminal, U unknown. */
  type: string;
  ip: string;
  city: string;
  user_agent: string;
  /** 0 disabled, 1 enabled, 2 unknown. */
  mfa: number;
  /** A reason code (`password_failed`…), empty on success. */
  reason: string;
  /** A backend code (`password`…). */
  backend: string;
  status: Bool;
  datetime: string;
}

/** One row per password change of a user, whoever made it (migration 0750). */
export interface PasswordChangeLogTable {
  id: string;
  /** `name(username)` of the user at the time. */
  user: string;
  user_id: string;
  /** `name(username)` of who changed it, `System` for the system. */
  change_by: string;
  remote_addr: string;
  datetime: string;
}

export interface AuditTables {
  audits_userloginlog: UserLoginLogTable;
  audits_passwordchangelog: PasswordChangeLogTable;
}
