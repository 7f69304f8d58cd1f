import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Language, TextParams } from '@gatehouse/contract';
import { CommandPolicy, RISK, type CommandVerdict } from '../gateway/commandPolicy.ts';
import { commandReviewer } from '../gateway/commandReview.ts';
import type { ControlTarget } from '../gateway/control.ts';
import { tm, type TerminalMessageKey } from '../gateway/gatewayError.ts';
import type { GatewayDeps } from '../gateway/gatewaySession.ts';
import { Recorder, replayRelPath } from '../gateway/recorder.ts';
import {
  endedSessionRow,
  logSession,
  recordCommand,
  startedSessionRow,
  warnCommandReviewers,
  type SessionLabels,
} from '../gateway/sessionRecords.ts';
import type { DbTarget } from './dbTarget.ts';
import type { SqlDialect } from './sqlText.ts';

/**
 * One database session through a proxy (`pgProxy.ts`, `mysqlProxy.ts`), whatever carries it (the
 * user's own client on the proxy's port, or the web terminal's `psql`/`mariadb` under a pty): its
 * row in `terminal_session` (protocol `mysql`/`mariadb`/`postgresql`), one `terminal_command` row
 * per statement (written as the statement is sent, then completed with its outcome: the server's
 * tag or row count, or its error, and the time it took), the recording (asciicast: each statement
 * and its outcome as lines, so a replay is the session's timeline), the command filter rules on
 * each statement (the terminal's matcher, `gateway/commandPolicy.ts`, on the normalised text), the
 * limits (`SECURITY_MAX_SESSION_TIME`, `SECURITY_MAX_IDLE_TIME`) and its place in the registry the
 * bus reaches (kill, lock, watch).
 */
export interface DbSessionOptions {
  user: { id: string; name: string; username: string };
  accountId: string;
  target: DbTarget;
  lang: Language;
  loginFrom: 'WT' | 'ST';
  remoteAddr: string;
  /**
   * Part of a terminal session (the web terminal's database client, `dbShell.ts`): the statements
   * are recorded under that session, which owns the row, the recording, the limits and control.
   */
  embedded?: { sessionId: string };
}

/** What the proxy does for the session: end the connection with a message, hold or release the client. */
export interface DbSessionHost {
  /** Ends both connections; `message` goes to the client as a protocol error first. */
  end(message: string): void;
  pause(): void;
  resume(): void;
  /** A message to the client that does not end anything (PostgreSQL: a notice; MySQL: nothing). */
  notice?(message: string): void;
}

/** One statement on its way: its record completes when the server answered it. */
export interface StatementRun {
  text: string;
  started: number;
  recordId: Promise<string | undefined>;
}

/** What a statement was let through with: its risk level and the rule that decided, if any. */
export interface Decision {
  risk: number;
  verdict?: CommandVerdict;
}

export type Judgement = { ok: true; runs: StatementRun[]; decision: Decision } | { ok: false; message: string };

const MAX_RECORDED = 4096;

export class DbSession implements ControlTarget {
  readonly id: string;
  private recorder?: Recorder;
  private readonly started = new Date();
  private labels: SessionLabels;
  private policy: CommandPolicy;
  private host?: DbSessionHost;
  private commands = 0;
  private watchers = 0;
  private ended = false;
  private locked = false;
  private idleTimer?: NodeJS.Timeout;
  private maxTimer?: NodeJS.Timeout;
  private idleMs = 0;
  /** Record writes in order (a statement's outcome after its row). */
  private writes: Promise<unknown> = Promise.resolve();
  private readonly review = new AbortController();
  private failure = '';
  private lastAt = 0;

  constructor(
    private readonly deps: GatewayDeps,
    private readonly o: DbSessionOptions,
  ) {
    const t = o.target;
    this.id = o.embedded?.sessionId ?? randomUUID();
    this.labels = {
      sessionId: this.id,
      orgId: t.orgId,
      remoteAddr: o.remoteAddr,
      user: `${o.user.name}(${o.user.username})`,
      ...t.display,
    };
    this.policy = new CommandPolicy(deps.db, deps.settings, {
      orgId: t.orgId,
      userId: o.user.id,
      assetId: t.assetId,
      username: t.username,
      remoteAddr: o.remoteAddr,
    });
  }

  /** Statements recorded so far. */
  get count(): number {
    return this.commands;
  }

  get dialect(): SqlDialect {
    return this.o.target.dialect;
  }

  get lang(): Language {
    return this.o.lang;
  }

  private logFields() {
    const { user, asset, account } = this.labels;
    const from = this.o.loginFrom === 'WT' ? 'WT (database)' : 'ST (database client)';
    return { id: this.id, user, asset, account, protocol: this.o.target.protocol, from };
  }

  /** Writes the running session's row and joins the registry; the host is the connection's proxy. */
  async start(host: DbSessionHost): Promise<void> {
    const { db, settings, dataDir } = this.deps;
    this.host = host;
    if (this.o.embedded) return;
    const rel = replayRelPath(this.id, this.started);
    await db
      .insertInto('terminal_session')
      .values({
        ...startedSessionRow({
          id: this.id,
          user: this.labels.user,
          userId: this.o.user.id,
          assetId: this.o.target.assetId,
          accountId: this.o.accountId,
          protocol: this.o.target.protocol,
          loginFrom: this.o.loginFrom,
          remoteAddr: this.o.remoteAddr,
          terminalId: this.deps.terminalId,
          started: this.started,
        }),
        asset: this.labels.asset,
        account: this.labels.account,
        replay_path: rel,
        org_id: this.labels.orgId,
      })
      .execute();
    logSession(this.deps.log, 'opened', this.logFields());
    this.recorder = new Recorder(path.join(dataDir, rel), {
      width: 120,
      height: 30,
      timestamp: Math.floor(this.started.getTime() / 1000),
      title: `${this.labels.user} ${this.labels.account}@${this.labels.asset}`,
      env: { TERM: 'xterm-256color' },
    });
    this.deps.registry.add(this);
    const maxMs = Number((await settings.get('SECURITY_MAX_SESSION_TIME')) ?? 0) * 3_600_000;
    if (maxMs > 0) this.maxTimer = setTimeout(() => this.stop('session_max_time', { hours: maxMs / 3_600_000 }), maxMs);
    this.idleMs = Number((await settings.get('SECURITY_MAX_IDLE_TIME')) ?? 0) * 60_000;
    this.touch();
  }

  /** Input came: the idle limit starts again. */
  private touch(): void {
    if (!this.idleMs || this.ended) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.stop('session_idle', { minutes: this.idleMs / 60_000 }), this.idleMs);
    this.idleTimer.unref();
  }

  /**
   * The rules on a query's statements (each normalised) before any of it is sent: one rejected
   * statement refuses the whole text (nothing of it reaches the database); a review rule holds it
   * until the reviewer's ticket is decided. Accepted statements are recorded (warning: risk 4 and
   * the rule's reviewers told) and answered with their runs, to complete when the server answers.
   */
  async judge(statements: { text: string; normalised: string }[], opts: { record?: boolean } = {}): Promise<Judgement> {
    this.touch();
    const decided: { text: string; risk: number; verdict?: CommandVerdict }[] = [];
    const verdicts = await this.policy.checkMany(statements.map((s) => s.normalised));
    for (const [i, s] of statements.entries()) {
      const verdict = verdicts[i];
      const action = verdict?.action ?? 'accept';
      if (action === 'reject') return this.refuse(s.text, verdict!, RISK.reject);
      if (action === 'review') {
        const outcome = await this.held(s.text, verdict!);
        if (outcome !== 'approved') return this.refuse(s.text, verdict!, outcome);
        decided.push({ text: s.text, risk: RISK.reviewAccept, verdict: verdict! });
        continue;
      }
      decided.push({
        text: s.text,
        risk: action === 'warning' ? RISK.warning : RISK.accept,
        ...(verdict ? { verdict } : {}),
      });
    }
    for (const d of decided)
      if (d.risk === RISK.warning)
        void warnCommandReviewers(
          { db: this.deps.db, bus: this.deps.bus, settings: this.deps.settings },
          this.labels,
          d.text,
          d.verdict!,
        );
    const top = decided.reduce<Decision>((a, d) => (d.risk > a.risk ? { risk: d.risk, verdict: d.verdict } : a), {
      risk: RISK.accept,
    });
    // A prepared statement is recorded when it runs (each execution), with what it was let through with.
    if (opts.record === false) return { ok: true, runs: [], decision: top };
    return { ok: true, runs: decided.map((d) => this.run(d.text, d.risk, d.verdict)), decision: top };
  }

  /** A statement that no rule stops (a prepared statement's execution, judged when it was prepared). */
  run(text: string, risk: number = RISK.accept, verdict?: CommandVerdict): StatementRun {
    this.touch();
    this.commands++;
    this.recorder?.output(
      `\x1b[1m${this.o.target.dialect === 'mysql' ? 'mysql' : 'psql'}>\x1b[0m ${text.replace(/\r?\n/g, '\r\n  ')}\r\n`,
    );
    // Strictly increasing: the statements of one text keep their order in lists sorted by time.
    const at = (this.lastAt = Math.max(Date.now(), this.lastAt + 1));
    const recordId = this.queue(() =>
      recordCommand(this.deps.db, this.labels, { command: text, risk, verdict, output: '', at }),
    );
    if (this.watchers > 0) this.deps.registry.publishOutput(this.id, `> ${text}\r\n`);
    return { text, started: performance.now(), recordId };
  }

  /** The server answered a statement: its outcome (a tag, a row count) or its error, and how long it took. */
  done(run: StatementRun, outcome: { result?: string; error?: string }): void {
    const ms = Math.round((performance.now() - run.started) * 10) / 10;
    const line = outcome.error ? `ERROR: ${outcome.error} (${ms} ms)` : `${outcome.result ?? 'OK'} (${ms} ms)`;
    this.recorder?.output(outcome.error ? `\x1b[31m${line}\x1b[0m\r\n` : `${line}\r\n`);
    if (this.watchers > 0) this.deps.registry.publishOutput(this.id, `${line}\r\n`);
    const output = line.slice(0, 2048);
    void this.queue(async () => {
      const id = await run.recordId;
      if (id) await this.deps.db.updateTable('terminal_command').set({ output }).where('id', '=', id).execute();
      return id;
    });
  }

  private queue<T>(write: () => Promise<T>): Promise<T | undefined> {
    const next = this.writes.then(write).catch((e: unknown) => {
      this.deps.log?.info({ session: this.id, err: (e as Error).message }, 'database statement record failed');
      return undefined;
    });
    this.writes = next;
    return next;
  }

  private async refuse(text: string, verdict: CommandVerdict, risk: number): Promise<Judgement> {
    const key: TerminalMessageKey =
      risk === RISK.reject ? 'cmd_rejected' : risk === RISK.reviewCancel ? 'cmd_review_cancelled' : 'cmd_review_denied';
    const short = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    const message = tm(this.o.lang, key, { command: short, rule: verdict.ruleName });
    this.commands++;
    this.recorder?.output(`> ${text.replace(/\r?\n/g, '\r\n  ')}\r\n\x1b[31m${message}\x1b[0m\r\n`);
    await this.queue(() =>
      recordCommand(this.deps.db, this.labels, {
        command: text.slice(0, MAX_RECORDED),
        risk,
        verdict,
        output: message,
      }),
    );
    return { ok: false, message };
  }

  /** A review rule: the reviewer's ticket decides (without the tickets module, nobody can approve). */
  private async held(text: string, verdict: CommandVerdict): Promise<'approved' | number> {
    const reviewer = commandReviewer();
    if (!reviewer || !verdict.reviewers.length) return RISK.reviewReject;
    this.host?.notice?.(tm(this.o.lang, 'cmd_review_held', { command: text.slice(0, 200), rule: verdict.ruleName }));
    try {
      const answer = await reviewer({
        sessionId: this.id,
        command: text,
        ruleId: verdict.ruleId,
        reviewers: verdict.reviewers,
        userId: this.o.user.id,
        orgId: this.labels.orgId,
        assetId: this.o.target.assetId,
        accountId: this.o.accountId,
        signal: this.review.signal,
      });
      return answer === 'approved' ? 'approved' : RISK.reviewReject;
    } catch {
      return RISK.reviewCancel;
    }
  }

  /** Ends the session early (killed, out of time, idle): the client reads why as a protocol error. */
  private stop(key: TerminalMessageKey, params?: TextParams): void {
    if (this.ended) return;
    const message = tm(this.o.lang, key, params);
    this.recorder?.output(`\x1b[31m${message}\x1b[0m\r\n`);
    this.host?.end(message);
  }

  /** The session ends in failure (a protocol violation, an oversized message): said on its row. */
  async fail(reason: string): Promise<void> {
    this.failure = reason;
  }

  /** The connection ended: the recording is finished and the row completed (never throws). */
  async finish(): Promise<void> {
    if (this.o.embedded) {
      this.ended = true;
      this.review.abort();
      await this.writes;
      return;
    }
    if (this.ended) return;
    this.ended = true;
    this.review.abort();
    clearTimeout(this.idleTimer);
    clearTimeout(this.maxTimer);
    this.deps.registry.remove(this.id);
    const { db, dataDir } = this.deps;
    try {
      await this.writes;
      const gz = this.recorder ? await this.recorder.finish().catch(() => undefined) : undefined;
      await db
        .updateTable('terminal_session')
        .set({
          ...endedSessionRow(dataDir, gz, this.commands),
          ...(this.failure ? { is_success: false, comment: this.failure.slice(0, 1000) } : {}),
        })
        .where('id', '=', this.id)
        .execute();
      logSession(this.deps.log, 'closed', this.logFields(), {
        seconds: Math.round((Date.now() - this.started.getTime()) / 1000),
        commands: this.commands,
      });
    } catch {
      // Crash recovery finishes the row (gateway/instance.ts).
    }
  }

  // --- control (from the bus, any instance) ---

  kill(_by: string): void {
    this.stop('session_killed');
  }

  setLocked(locked: boolean, _by: string): void {
    if (this.ended || this.locked === locked) return;
    this.locked = locked;
    if (locked) this.host?.pause();
    else this.host?.resume();
    this.recorder?.output(`\x1b[33m${tm(this.o.lang, locked ? 'session_locked' : 'session_unlocked')}\x1b[0m\r\n`);
  }

  setWatched(delta: number): void {
    this.watchers = Math.max(0, this.watchers + delta);
  }
}

/**
 * A session that could not start (the database down, its login refused, no secret): a finished,
 * unsuccessful row with the reason, as the terminal's refused starts leave (`gatewaySession.ts`).
 */
export async function recordFailedSession(
  deps: GatewayDeps,
  o: Omit<DbSessionOptions, 'target'> & { assetId: string; protocol: string; target?: DbTarget },
  reason: string,
): Promise<void> {
  const id = randomUUID();
  const asset = await deps.db
    .selectFrom('assets_asset')
    .select(['name', 'address', 'org_id'])
    .where('id', '=', o.assetId)
    .executeTakeFirst();
  if (!asset) return;
  const now = new Date();
  await deps.db
    .insertInto('terminal_session')
    .values({
      ...startedSessionRow({
        id,
        user: `${o.user.name}(${o.user.username})`,
        userId: o.user.id,
        assetId: o.assetId,
        accountId: o.accountId,
        protocol: o.protocol,
        loginFrom: o.loginFrom,
        remoteAddr: o.remoteAddr,
        terminalId: deps.terminalId,
        started: now,
      }),
      asset: o.target?.display.asset ?? `${asset.name}(${asset.address})`,
      account: o.target?.display.account ?? o.accountId,
      org_id: asset.org_id,
      is_success: false,
      is_finished: true,
      date_end: now.toISOString(),
      comment: reason.slice(0, 1000),
    })
    .execute();
}
