import type { Bool } from '../schema.ts';

/** The gateway's records (migration 0600). */
export interface TerminalSessionTable {
  id: string;
  /** Display strings kept with the ids: the record outlives what it names. */
  user: string;
  user_id: string;
  asset: string;
  asset_id: string;
  account: string;
  account_id: string;
  protocol: string;
  /** normal | tunnel | command | sftp */
  type: string;
  /** ST | RT | WT | DT */
  login_from: string;
  remote_addr: string;
  is_success: Bool;
  is_finished: Bool;
  has_replay: Bool;
  has_command: Bool;
  is_locked: Bool;
  command_amount: number;
  /** The instance (row of terminal_terminal) whose gateway holds the session. */
  terminal_id: string;
  /** Recording path relative to DATA_DIR (`replays/<date>/<id>.cast[.gz]`), '' without one. */
  replay_path: string;
  date_start: string;
  date_end: string | null;
  comment: string;
  org_id: string;
}

export interface TerminalCommandTable {
  id: string;
  session_id: string;
  user: string;
  asset: string;
  account: string;
  input: string;
  output: string;
  /** 0 accept, 4 warning, 5 reject, 6 review & reject, 7 review & accept, 8 review & cancel. */
  risk_level: number;
  /** Epoch milliseconds (the API shows seconds, as the contract; ms keep commands of one second in order). */
  timestamp_ms: number;
  remote_addr: string;
  cmd_filter_acl_id: string | null;
  org_id: string;
}

export interface FtpLogTable {
  id: string;
  session_id: string | null;
  user: string;
  remote_addr: string;
  asset: string;
  account: string;
  operate: string;
  filename: string;
  is_success: Bool;
  has_file: Bool;
  date_start: string;
  org_id: string;
}

export interface TerminalTable {
  id: string;
  name: string;
  type: string;
  remote_addr: string;
  /** The process id on its host (the name says which host): a restart knows its dead predecessor by it. */
  pid: number;
  session_online: number;
  cpu_load: number;
  memory_used: number;
  disk_used: number;
  last_seen: string;
  date_created: string;
  comment: string;
}

export interface HostKeyTable {
  id: string;
  host: string;
  port: number;
  asset_id: string;
  key_type: string;
  /** OpenSSH `SHA256:` fingerprint. */
  fingerprint: string;
  date_created: string;
}

export interface TerminalTables {
  terminal_session: TerminalSessionTable;
  terminal_command: TerminalCommandTable;
  audits_ftplog: FtpLogTable;
  terminal_terminal: TerminalTable;
  terminal_hostkey: HostKeyTable;
}
