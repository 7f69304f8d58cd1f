import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import { escapeHtml } from '../../notifications/sanitize.ts';
import { notify, type NotifyDeps } from '../../notifications/notify.ts';
import type { CommandVerdict } from './commandPolicy.ts';
import { tm } from './gatewayError.ts';

/**
 * What every gateway session (a terminal, `gatewaySession.ts`; a command run by exec,
 * `gatewayExec.ts`) writes: its row in `terminal_session` as it starts, a row in `terminal_command`
 * per command, and the site message a warning rule sends its reviewers.
 */
export interface SessionLabels {
  sessionId: string;
  orgId: string;
  remoteAddr: string;
  /** As the session row shows them: `name(username)`, `name(address)`, `name(username)`. */
  user: string;
  asset: string;
  account: string;
}

/** Where a gateway tells that a session opened or closed (the app's logger). */
export interface GatewayLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/** The log line of a session that opened, or closed (with how long it ran and its commands). */
export function logSession(
  log: GatewayLog | undefined,
  event: 'opened' | 'closed',
  s: { id: string; user: string; asset: string; account: string; protocol: string; from: string },
  closed?: { seconds: number; commands: number },
): void {
  log?.info(
    { session: s.id, user: s.user, asset: s.asset, account: s.account, protocol: s.protocol, from: s.from, ...closed },
    `session ${event}`,
  );
}

/** A session's row as it starts (running, no command yet); callers add its labels, org and replay. */
export function startedSessionRow(s: {
  id: string;
  user: string;
  userId: string;
  assetId: string;
  accountId: string;
  protocol: string;
  loginFrom: 'WT' | 'ST';
  remoteAddr: string;
  terminalId: string;
  started: Date;
}) {
  return {
    id: s.id,
    user: s.user,
    user_id: s.userId,
    asset_id: s.assetId,
    account_id: s.accountId,
    protocol: s.protocol,
    type: 'normal',
    login_from: s.loginFrom,
    remote_addr: s.remoteAddr,
    terminal_id: s.terminalId,
    date_start: s.started.toISOString(),
    is_success: true,
    is_finished: false,
    has_replay: false,
    has_command: false,
    is_locked: false,
    command_amount: 0,
    replay_path: '',
    date_end: null,
    comment: '',
  };
}

/**
 * What finishes a session's row: ended now, with its recording (`gz`, the compressed cast under
 * `dataDir`, when it could be finished) and its number of commands.
 */
export function endedSessionRow(dataDir: string, gz: string | undefined, commands: number) {
  return {
    is_finished: true,
    date_end: new Date().toISOString(),
    has_replay: Boolean(gz),
    has_command: commands > 0,
    command_amount: commands,
    is_locked: false,
    ...(gz ? { replay_path: path.relative(dataDir, gz).split(path.sep).join('/') } : {}),
  };
}

/**
 * Stores one command with its risk level (and output, when known) and answers its id; `fromInput`:
 * read from the keys typed, the screen not showing them (echo off).
 */
export async function recordCommand(
  db: Kysely<DB>,
  s: SessionLabels,
  c: {
    command: string;
    risk: number;
    verdict: CommandVerdict | undefined;
    output: string;
    fromInput?: boolean;
    /** When it was sent (epoch ms), if the row is written later; now by default. */
    at?: number;
  },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('terminal_command')
    .values({
      id,
      session_id: s.sessionId,
      user: s.user,
      asset: s.asset,
      account: s.account,
      input: c.command.slice(0, 4096),
      output: c.output,
      risk_level: c.risk,
      timestamp_ms: c.at ?? Date.now(),
      remote_addr: s.remoteAddr,
      cmd_filter_acl_id: c.verdict?.ruleId ?? null,
      from_input: Boolean(c.fromInput),
      org_id: s.orgId,
    })
    .execute();
  return id;
}

/** A warning rule's reviewers learn who ran what where, each in their own language (`notify.ts`). */
export async function warnCommandReviewers(
  deps: Omit<NotifyDeps, 'log'> & { log?: NotifyDeps['log'] },
  s: SessionLabels,
  command: string,
  v: CommandVerdict,
): Promise<void> {
  if (!v.reviewers.length) return;
  const params = {
    user: s.user,
    command,
    asset: s.asset,
    account: s.account,
    rule: v.ruleName,
    session: s.sessionId,
  };
  const log = deps.log ?? { error: (obj: object, msg: string) => console.error(msg, obj) };
  await notify(
    { ...deps, log },
    {
      type: 'command_warning',
      text: (lang) => ({
        subject: tm(lang, 'cmd_warning_subject', { command: command.slice(0, 100) }),
        message: escapeHtml(tm(lang, 'cmd_warning_body', params)),
      }),
      userIds: v.reviewers,
    },
  );
}
