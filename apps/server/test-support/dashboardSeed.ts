import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../src/platform/db/schema.ts';
import type { TerminalSessionTable } from '../src/platform/db/tables/terminal.ts';

/** Rows of the gateway's tables for dashboard tests and benchmarks, straight into the database. */
export interface SessionSeed {
  user: string;
  userId: string;
  asset: string;
  at: number;
  org: string;
  success?: boolean;
  finished?: boolean;
}

export function sessionRow(s: SessionSeed): Insertable<TerminalSessionTable> {
  return {
    id: randomUUID(),
    user: s.user,
    user_id: s.userId,
    asset: s.asset,
    asset_id: randomUUID(),
    account: 'root',
    account_id: randomUUID(),
    protocol: 'ssh',
    type: 'normal',
    login_from: 'WT',
    remote_addr: '127.0.0.1',
    is_success: s.success ?? true,
    is_finished: s.finished ?? true,
    has_replay: false,
    has_command: false,
    is_locked: false,
    command_amount: 0,
    terminal_id: '',
    replay_path: '',
    date_start: new Date(s.at).toISOString(),
    date_end: null,
    comment: '',
    org_id: s.org,
  };
}

export async function seedSessions(db: Kysely<DB>, rows: SessionSeed[]): Promise<void> {
  await db.insertInto('terminal_session').values(rows.map(sessionRow)).execute();
}

export function commandRow(at: number, risk: number, org: string, input = 'ls') {
  return {
    id: randomUUID(),
    session_id: randomUUID(),
    user: 'u',
    asset: 'a',
    account: 'root',
    input,
    output: '',
    risk_level: risk,
    timestamp_ms: at,
    remote_addr: '127.0.0.1',
    cmd_filter_acl_id: null,
    org_id: org,
  };
}

export function loginLogRow(username: string, at: number, status: boolean) {
  return {
    id: randomUUID(),
    username,
    type: 'W',
    ip: '127.0.0.1',
    city: '',
    user_agent: '',
    mfa: 0,
    reason: status ? '' : 'password_failed',
    backend: 'password',
    status,
    datetime: new Date(at).toISOString(),
  };
}
