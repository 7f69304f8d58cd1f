import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Kysely } from 'kysely';
import type { ClientChannel } from 'ssh2';
import type { Language } from '@gatehouse/contract';
import type { Bus } from '../../../platform/bus/index.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import type { DB } from '../../../platform/db/schema.ts';
import type { SettingsStore } from '../../settings/store.ts';
import { CommandPolicy, RISK, type CommandVerdict } from './commandPolicy.ts';
import { CommandReader, OutputExcerpt } from './commandReader.ts';
import {
  endedSessionRow,
  logSession,
  recordCommand,
  startedSessionRow,
  warnCommandReviewers,
  type GatewayLog,
  type SessionLabels,
} from './sessionRecords.ts';
import { commandReviewer } from './commandReview.ts';
import { EchoClock } from './echoClock.ts';
import type { ControlTarget, SessionRegistry, ShareEvent } from './control.ts';
import { GatewayError, tm, type TerminalMessageKey } from './gatewayError.ts';
import { Recorder, replayRelPath } from './recorder.ts';
import { openK8sShell, type K8sContainer } from '../k8s/k8sExec.ts';
import { sshShell, type RemoteShell } from './remoteShell.ts';
import { openSsh } from './sshConnect.ts';
import { resolveTarget, type SuStep, type TypedLogin } from './sshTarget.ts';
import type { TextParams } from '@gatehouse/contract';

/**
 * One terminal session through the gateway, whatever front end carries it (the web terminal's
 * WebSocket, the native SSH server) and whatever the remote end is (`RemoteShell`: an ssh2 shell
 * on the asset, through its domain gateway, after `su` when configured; or a Kubernetes
 * container's exec stream) behind a duplex `stream` (write the user's input, read the terminal
 * output) and `resize()`. It owns its row in `terminal_session`, the asciicast recording, the
 * command reader and command filter rules, the idle and maximum-time limits, and its place in
 * the registry that the bus reaches (kill, lock, watch).
 */
export interface GatewayDeps {
  db: Kysely<DB>;
  settings: SettingsStore;
  secretBox: SecretBox;
  bus: Bus;
  dataDir: string;
  registry: SessionRegistry;
  /** The instance's gateway (row of `terminal_terminal`). */
  terminalId: string;
  /** Sessions opened and closed are told here (the app's logger). */
  log?: GatewayLog;
}

export interface OpenSessionOptions {
  user: { id: string; name: string; username: string };
  assetId: string;
  /** A stored account's id, or a virtual account's alias (`@INPUT`, `@USER`) with `typed`. */
  accountId: string;
  /** The login of a virtual account, or the password when the stored account has no usable secret. */
  typed?: TypedLogin;
  /** A Kubernetes asset's container: the session is an exec of a shell in it (protocol `k8s`). */
  k8s?: K8sContainer;
  lang: Language;
  loginFrom: 'WT' | 'ST';
  remoteAddr: string;
  cols?: number;
  rows?: number;
  term?: string;
  /** Limits in ms; default from SECURITY_MAX_IDLE_TIME (minutes) and SECURITY_MAX_SESSION_TIME (hours); 0 = none. */
  idleMs?: number;
  maxMs?: number;
}

export type EndReason = 'closed' | 'killed' | 'idle' | 'max_time' | 'error';

const ENTER = '\r';
const CTRL_C = '\x03';
/** Keys that only add text to a line: no control key, escape sequence or Delete. */
// eslint-disable-next-line no-control-regex -- control keys and escapes are what ends plain typing
const plainText = (keys: string) => !/[\x00-\x1f\x7f]/.test(keys);
/** End of line, then kill the line: the shell forgets what was typed. */
const KILL_LINE = '\x05\x15';

interface PendingCommand {
  id: string;
  excerpt: OutputExcerpt;
}

export class GatewaySession extends EventEmitter implements ControlTarget {
  readonly id = randomUUID();
  readonly stream: Duplex;
  private remote?: RemoteShell;
  private recorder?: Recorder;
  private reader: CommandReader;
  private policy?: CommandPolicy;
  private decoder = new StringDecoder('utf8');
  private inputChain: Promise<void> = Promise.resolve();
  private pending?: PendingCommand;
  private held?: { abort: AbortController; resolve: (outcome: 'cancel' | 'approved' | 'rejected') => void };
  private locked = false;
  private watchers = 0;
  /** The current line's keys while they are plain text (undefined once an editing key or escape came). */
  private typedPlain: string | undefined = '';
  private ended = false;
  private readonly echo = new EchoClock();
  private lastInput = Date.now();
  private readonly started = new Date();
  private limitTimer?: NodeJS.Timeout;
  private commandCount = 0;
  private orgId = '';
  private display = { user: '', asset: '', account: '' };
  private cols: number;
  private rows: number;

  private constructor(
    private readonly deps: GatewayDeps,
    private readonly o: OpenSessionOptions,
  ) {
    super();
    this.cols = o.cols ?? 80;
    this.rows = o.rows ?? 24;
    this.reader = new CommandReader(this.cols, this.rows);
    this.stream = new Duplex({
      decodeStrings: false,
      write: (chunk: Buffer | string, _enc, cb) => {
        this.input(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
        cb();
      },
      read: () => {
        this.remote?.resume();
      },
      final: (cb) => {
        void this.close('closed');
        cb();
      },
    });
  }

  /** Connects and starts the session; a refusal (host key changed, no secret...) throws a GatewayError. */
  static async open(deps: GatewayDeps, o: OpenSessionOptions): Promise<GatewaySession> {
    const s = new GatewaySession(deps, o);
    await s.start();
    return s;
  }

  get isLocked(): boolean {
    return this.locked;
  }

  private async start(): Promise<void> {
    const { db, settings } = this.deps;
    const o = this.o;
    this.display.user = `${o.user.name}(${o.user.username})`;
    const stored = await db
      .selectFrom('accounts_account')
      .select(['name', 'username'])
      .where('id', '=', o.accountId)
      .executeTakeFirst();
    const account = stored ?? (o.typed ? { name: o.typed.name, username: o.typed.username } : undefined);
    if (!account) throw new GatewayError('no_secret', o.lang, { account: o.accountId });
    const row = startedSessionRow({
      id: this.id,
      user: this.display.user,
      userId: o.user.id,
      assetId: o.assetId,
      accountId: o.accountId,
      protocol: o.k8s ? 'k8s' : 'ssh',
      loginFrom: o.loginFrom,
      remoteAddr: o.remoteAddr,
      terminalId: this.deps.terminalId,
      started: this.started,
    });
    let su: SuStep | undefined;
    try {
      su = await this.openRemote();
    } catch (e) {
      const asset = await db
        .selectFrom('assets_asset')
        .select(['name', 'address', 'org_id'])
        .where('id', '=', o.assetId)
        .executeTakeFirst();
      await db
        .insertInto('terminal_session')
        .values({
          ...row,
          asset: this.display.asset || (asset ? `${asset.name}(${asset.address})` : o.assetId),
          account: this.display.account || `${account.name}(${account.username})`,
          is_success: false,
          is_finished: true,
          date_end: new Date().toISOString(),
          comment: (e as Error).message.slice(0, 1000),
          org_id: this.orgId || asset?.org_id || '',
        })
        .execute();
      throw e instanceof GatewayError
        ? e
        : new GatewayError('connect_failed', o.lang, { target: this.display.asset, error: (e as Error).message });
    }
    const rel = replayRelPath(this.id, this.started);
    this.recorder = new Recorder(path.join(this.deps.dataDir, rel), {
      width: this.cols,
      height: this.rows,
      timestamp: Math.floor(this.started.getTime() / 1000),
      title: `${this.display.user} ${this.display.account}@${this.display.asset}`,
      env: { TERM: o.term ?? 'xterm-256color' },
    });
    await db
      .insertInto('terminal_session')
      .values({
        ...row,
        asset: this.display.asset,
        account: this.display.account,
        replay_path: rel,
        org_id: this.orgId,
      })
      .execute();
    logSession(this.deps.log, 'opened', this.logFields());
    this.policy = new CommandPolicy(db, settings, {
      orgId: this.orgId,
      userId: o.user.id,
      assetId: o.assetId,
      username: account.username,
      remoteAddr: o.remoteAddr,
    });
    this.deps.registry.add(this);
    const remote = this.remote!;
    // Only the asset's output times its echo (not the gateway's own notices).
    remote.on('data', (b: Buffer) => {
      this.echo.output();
      this.output(this.decoder.write(b));
    });
    remote.on('close', (reason) => void this.close(reason));
    this.startLimits(
      o.idleMs ?? Number((await settings.get('SECURITY_MAX_IDLE_TIME')) ?? 0) * 60_000,
      o.maxMs ?? Number((await settings.get('SECURITY_MAX_SESSION_TIME')) ?? 0) * 3_600_000,
    );
    if (su) await this.switchUser(su);
  }

  /**
   * Resolves the target and opens the remote shell (`this.remote`): a container's exec for a
   * Kubernetes session, else an ssh2 shell (answering the `su` step to run once it is open).
   */
  private async openRemote(): Promise<SuStep | undefined> {
    const { db, secretBox } = this.deps;
    const o = this.o;
    const size = { cols: this.cols, rows: this.rows };
    if (o.k8s) {
      const opened = await openK8sShell(db, secretBox, o.lang, o.assetId, o.accountId, o.k8s, size);
      this.orgId = opened.orgId;
      this.display = { ...this.display, ...opened.display };
      this.remote = opened.shell;
      this.echo.seed(opened.openMs);
      return undefined;
    }
    const t = await resolveTarget(db, secretBox, o.lang, o.assetId, o.accountId, o.typed);
    this.orgId = t.orgId;
    this.display.asset = t.display.asset;
    this.display.account = t.display.account;
    const link = await openSsh(db, o.lang, t.target, t.gateway);
    try {
      const asked = Date.now();
      const channel = await new Promise<ClientChannel>((resolve, reject) =>
        link.client.shell({ term: o.term ?? 'xterm-256color', ...size }, (err, ch) =>
          err ? reject(err) : resolve(ch),
        ),
      );
      // Opening the shell takes a few round trips to the asset: a provisional estimate of its echo delay.
      this.echo.seed(Date.now() - asked);
      this.remote = sshShell(link, channel);
    } catch (e) {
      link.end();
      throw e;
    }
    return t.su;
  }

  /**
   * `su` to the account after logging in as the account it is switched from: the command, its
   * password prompt answered, then either a failure message or a shell prompt. A failure ends the
   * session as unsuccessful.
   */
  private async switchUser(su: SuStep): Promise<void> {
    const prompt = await this.expect(/assword[^:]*:\s*$/, 10000, () => this.remote!.write(`${su.command}\n`));
    const after = prompt
      ? await this.expect(/(failure|incorrect|sorry|denied)|[#$>%]\s*$/i, 10000, () =>
          this.remote!.write(`${su.password}\n`),
        )
      : undefined;
    if (after && !/(failure|incorrect|sorry|denied)/i.test(after)) return;
    const error = new GatewayError('su_failed', this.o.lang, { account: su.username, method: su.command });
    await this.close('error');
    await this.deps.db
      .updateTable('terminal_session')
      .set({ is_success: false, comment: error.message })
      .where('id', '=', this.id)
      .execute();
    throw error;
  }

  /** Sends, then waits for output matching `re`; answers what was seen, or undefined on timeout. */
  private expect(re: RegExp, ms: number, send: () => void): Promise<string | undefined> {
    return new Promise((resolve) => {
      let seen = '';
      const onData = (b: Buffer) => {
        seen += b.toString('utf8');
        if (re.test(seen)) done(seen);
      };
      const timer = setTimeout(() => done(undefined), ms);
      const done = (result: string | undefined) => {
        clearTimeout(timer);
        this.remote!.off('data', onData);
        resolve(result);
      };
      this.remote!.on('data', onData);
      send();
    });
  }

  private startLimits(idleMs: number, maxMs: number): void {
    const check = () => {
      if (this.ended) return;
      const now = Date.now();
      if (maxMs > 0 && now - this.started.getTime() >= maxMs) {
        this.notice('session_max_time', { hours: +(maxMs / 3_600_000).toFixed(2) });
        void this.close('max_time');
        return;
      }
      if (idleMs > 0 && now - this.lastInput >= idleMs) {
        this.notice('session_idle', { minutes: +(idleMs / 60_000).toFixed(2) });
        void this.close('idle');
        return;
      }
      const next = Math.min(
        maxMs > 0 ? this.started.getTime() + maxMs - now : Infinity,
        idleMs > 0 ? this.lastInput + idleMs - now : Infinity,
      );
      if (Number.isFinite(next)) this.limitTimer = setTimeout(check, Math.max(50, next + 10));
    };
    check();
  }

  /** What the asset sent: to the user, the recording, the command reader and any watcher. */
  private output(text: string): void {
    if (!text || this.ended) return;
    this.reader.output(text);
    this.recorder?.output(text);
    this.pending?.excerpt.add(text);
    if (this.watchers > 0) this.deps.registry.publishOutput(this.id, text);
    if (!this.stream.push(text)) this.remote?.pause();
  }

  /** A message of the gateway to the user, on a line of its own (recorded and seen by watchers too). */
  private notice(key: TerminalMessageKey, params?: TextParams): void {
    this.output(`\r\n\x1b[31m${tm(this.o.lang, key, params)}\x1b[0m\r\n`);
  }

  resize(cols: number, rows: number): void {
    if (this.ended || !(cols > 0 && rows > 0)) return;
    this.cols = cols;
    this.rows = rows;
    this.remote?.resize(cols, rows);
    this.reader.resize(cols, rows);
    this.recorder?.resize(cols, rows);
  }

  /** The user's input, processed in order (a held command keeps later keystrokes out, except Ctrl+C). */
  private input(data: string): void {
    if (this.ended) return;
    this.lastInput = Date.now();
    if (this.locked) return;
    if (this.held) {
      if (data.includes(CTRL_C)) this.held.resolve('cancel');
      return;
    }
    this.inputChain = this.inputChain.then(() => this.processInput(data)).catch(() => void this.close('error'));
  }

  /** Writes to the asset; `key`: keystrokes of a command line, whose echo is timed. */
  private send(text: string, key = false): void {
    if (!text || this.ended) return;
    this.echo.sent(key);
    this.remote?.write(text);
  }

  private async processInput(data: string): Promise<void> {
    let rest = data;
    while (rest && !this.ended && !this.held && !this.locked) {
      // eslint-disable-next-line no-control-regex -- Enter and Ctrl+C are what this looks for
      const i = rest.search(/[\r\x03]/);
      const text = i < 0 ? rest : rest.slice(0, i);
      if (text) {
        if (!this.reader.lineStarted) {
          await this.reader.settle();
          this.reader.beginLine();
          this.typedPlain = '';
        }
        this.typedPlain = this.typedPlain !== undefined && plainText(text) ? this.typedPlain + text : undefined;
        this.send(text, true);
      }
      if (i < 0) return;
      const key = rest[i]!;
      rest = rest.slice(i + 1);
      if (key === CTRL_C) {
        this.send(CTRL_C);
        this.reader.endLine();
      } else await this.enter();
    }
  }

  /**
   * Enter: once the echo of the keys sent has arrived (`EchoClock`, learnt from this session's
   * round trips), read the command, decide by the command filter rules, then send, refuse or hold
   * it: the Enter reaches the asset only after the decision.
   */
  private async enter(): Promise<void> {
    if ((await this.echo.caughtUp()) === 'echoed') await this.untilTypedShown();
    await this.reader.settle();
    const command = this.reader.command();
    this.reader.endLine();
    if (command === undefined) return this.send(ENTER);
    await this.finishPending();
    const verdict = await this.policy!.check(command);
    const action = verdict?.action ?? 'accept';
    if (action === 'accept') return this.run(command, RISK.accept, verdict);
    if (action === 'warning') {
      await this.run(command, RISK.warning, verdict);
      return this.warnReviewers(command, verdict!);
    }
    if (action === 'reject') {
      const msg = tm(this.o.lang, 'cmd_rejected', { command, rule: verdict!.ruleName });
      await this.store(command, RISK.reject, verdict, msg);
      this.output(`\r\n\x1b[31m${msg}\x1b[0m\r\n`);
      return this.send(KILL_LINE + ENTER);
    }
    this.hold(command, verdict!);
  }

  /**
   * A line typed as plain text (no editing key, escape or Tab): the echo has caught up only once
   * the line shows all of it. An echo held back mid-line (a loaded asset, a hiccup on the link)
   * looks like the end of the echo to the clock, and reading then would judge `rm -rf /tm` instead
   * of what the asset runs; so wait for the rest, at most the clock's longest wait.
   */
  private async untilTypedShown(): Promise<void> {
    const typed = this.typedPlain?.trim();
    if (!typed) return;
    const deadline = Date.now() + this.echo.maxWait;
    for (;;) {
      await this.reader.settle();
      const line = this.reader.command();
      if (this.ended || line === undefined || line.endsWith(typed) || Date.now() >= deadline) return;
      await this.echo.nextOutput(deadline - Date.now());
    }
  }

  private hold(command: string, verdict: CommandVerdict): void {
    this.notice('cmd_review_held', { command, rule: verdict.ruleName });
    const abort = new AbortController();
    const outcome = new Promise<'cancel' | 'approved' | 'rejected'>((resolve) => {
      this.held = { abort, resolve };
      const reviewer = commandReviewer();
      reviewer?.({
        sessionId: this.id,
        command,
        ruleId: verdict.ruleId,
        reviewers: verdict.reviewers,
        userId: this.o.user.id,
        orgId: this.orgId,
        assetId: this.o.assetId,
        accountId: this.o.accountId,
        signal: abort.signal,
      }).then(resolve, () => resolve('rejected'));
    });
    // Not awaited by the input chain: Ctrl+C must get through while the command is held.
    this.inputChain = outcome.then(async (o) => {
      this.held = undefined;
      abort.abort();
      // A session ending while the line is held cancels it (still recorded).
      if (o === 'approved' && !this.ended) {
        this.notice('cmd_review_approved');
        return this.run(command, RISK.reviewAccept, verdict);
      }
      const cancelled = o === 'cancel' || this.ended;
      await this.store(command, cancelled ? RISK.reviewCancel : RISK.reviewReject, verdict, '');
      if (this.ended) return;
      this.notice(cancelled ? 'cmd_review_cancelled' : 'cmd_review_denied');
      this.send(KILL_LINE + ENTER);
    });
  }

  private async run(command: string, risk: number, verdict: CommandVerdict | undefined): Promise<void> {
    const id = await this.store(command, risk, verdict, '');
    this.pending = { id, excerpt: new OutputExcerpt() };
    this.send(ENTER);
  }

  private async store(command: string, risk: number, verdict: CommandVerdict | undefined, output: string) {
    this.commandCount++;
    return recordCommand(this.deps.db, this.labels(), { command, risk, verdict, output });
  }

  private logFields() {
    const o = this.o;
    return { id: this.id, ...this.display, protocol: o.k8s ? 'k8s' : 'ssh', from: o.loginFrom };
  }

  private labels(): SessionLabels {
    return { sessionId: this.id, orgId: this.orgId, remoteAddr: this.o.remoteAddr, ...this.display };
  }

  /** The output of the previous command, its last line (the next prompt) left out. */
  private async finishPending(): Promise<void> {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    const output = p.excerpt.take(true);
    if (output) await this.deps.db.updateTable('terminal_command').set({ output }).where('id', '=', p.id).execute();
  }

  private warnReviewers(command: string, v: CommandVerdict): Promise<void> {
    return warnCommandReviewers(this.deps.db, this.deps.bus, this.labels(), command, v);
  }

  // --- control (from the bus, any instance) ---

  kill(_by: string): void {
    if (this.ended) return;
    this.notice('session_killed');
    void this.close('killed');
  }

  setLocked(locked: boolean, _by: string): void {
    if (this.ended || this.locked === locked) return;
    this.locked = locked;
    this.notice(locked ? 'session_locked' : 'session_unlocked');
    this.emit('lock', locked);
  }

  setWatched(delta: number): void {
    this.watchers = Math.max(0, this.watchers + delta);
    // A new watcher (subscribed before announcing itself) first gets the screen as it stands.
    if (delta > 0 && !this.ended)
      void this.reader.settle().then(() => this.deps.registry.publishOutput(this.id, this.reader.screenState()));
  }

  sharedInput(data: string): void {
    this.input(data);
  }

  shareEvent(e: ShareEvent): void {
    if (!this.ended) this.emit('share', e);
  }

  /** Ends the session: the asset's connection, the recording (compressed), the row finished. */
  async close(reason: EndReason = 'closed'): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.limitTimer);
    this.echo.stop();
    this.held?.resolve('cancel');
    this.deps.registry.remove(this.id);
    this.remote?.end();
    const rest = this.decoder.end();
    if (rest) this.recorder?.output(rest);
    // Closing never rejects (callers do not wait for it): a recording that cannot be finished (its
    // folder gone, a full disk) leaves the row without a replay, and a row that cannot be written
    // (the database closing with the app) is finished by the next start's crash recovery.
    try {
      await this.inputChain.catch(() => undefined);
      await this.finishPending().catch(() => undefined);
      const gz = this.recorder ? await this.recorder.finish().catch(() => undefined) : undefined;
      await this.deps.db
        .updateTable('terminal_session')
        .set(endedSessionRow(this.deps.dataDir, gz, this.commandCount))
        .where('id', '=', this.id)
        .execute();
      logSession(this.deps.log, 'closed', this.logFields(), {
        seconds: Math.round((Date.now() - this.started.getTime()) / 1000),
        commands: this.commandCount,
      });
    } catch {
      // See above: crash recovery finishes the row.
    } finally {
      this.reader.dispose();
      this.stream.push(null);
      this.emit('end', reason);
    }
  }
}
