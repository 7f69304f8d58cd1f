import { randomUUID } from 'node:crypto';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../src/platform/db/schema.ts';

/** Rows of sessions and commands written straight to the database, for the audit tests. */
export async function seedSession(
  db: Kysely<DB>,
  over: Partial<DB['terminal_session']> & { date_start: string },
): Promise<string> {
  const id = over.id ?? randomUUID();
  await db
    .insertInto('terminal_session')
    .values({
      id,
      user: 'Administrator(admin)',
      user_id: randomUUID(),
      asset: 'web-01(10.0.0.1)',
      asset_id: randomUUID(),
      account: 'root(root)',
      account_id: randomUUID(),
      protocol: 'ssh',
      type: 'normal',
      login_from: 'WT',
      remote_addr: '127.0.0.1',
      is_success: true,
      is_finished: true,
      has_replay: false,
      has_command: true,
      is_locked: false,
      command_amount: 0,
      terminal_id: '',
      replay_path: '',
      date_end: over.date_start,
      comment: '',
      org_id: DEFAULT_ORG_ID,
      ...over,
    } as never)
    .execute();
  return id;
}

export async function seedCommands(
  db: Kysely<DB>,
  sessionId: string,
  rows: { input: string; timestamp_ms: number; org_id?: string; risk_level?: number; user?: string }[],
): Promise<string[]> {
  const values = rows.map((r) => ({
    id: randomUUID(),
    session_id: sessionId,
    user: r.user ?? 'Administrator(admin)',
    asset: 'web-01(10.0.0.1)',
    account: 'root(root)',
    input: r.input,
    output: '',
    risk_level: r.risk_level ?? 0,
    timestamp_ms: r.timestamp_ms,
    remote_addr: '127.0.0.1',
    cmd_filter_acl_id: null,
    org_id: r.org_id ?? DEFAULT_ORG_ID,
  }));
  for (let i = 0; i < values.length; i += 500)
    await db
      .insertInto('terminal_command')
      .values(values.slice(i, i + 500))
      .execute();
  return values.map((v) => v.id);
}
