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
import { CommandGate, type CommandRecord, type GateHost } from './commandGate.ts';
import { CommandPolicy } from './commandPolicy.ts';
import { CommandReader } from './commandReader.ts';
import {
  endedSessionRow,
  logSession,
  recordCommand,
  startedSessionRow,
  warnCommandReviewers,
  type GatewayLog,
  type SessionLabels,
} from './sessionRecords.ts';
import { EchoClock } from './echoClock.ts';
import type { ControlTarget, SessionRegistry, ShareEvent } from './control.ts';
import { GatewayError, tm, type TerminalMessageKey } from './gatewayError.ts';
import { Recorder, replayRelPath } from './recorder.ts';
import { archiveReplay, startStreaming } from '../storage/replayStorages.ts';
import type { ReplayStreamer } from '../storage/replayStream.ts';
import { forwardCommands } from '../storage/commandStorages.ts';
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
  /** How often a running recording goes to an object store (`REPLAY_STREAM_MS`, storage/replayStream.ts). */
  replayStreamMs?: number;
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
  /**
   * Another remote end plugged in by a front end (a database client under a pty behind the
   * database proxy, `../database/dbShell.ts`): it judges and records its commands itself, so the
   * user's keys go straight to it (no line reading, no line rules).
   */
  plug?: {
    protocol: string;
    open: (sessionId: string, size: { cols: number; rows: number }) => Promise<PluggedRemote>;
  };
  /** Limits in ms; default from SECURITY_MAX_IDLE_TIME (minutes) and SECURITY_MAX_SESSION_TIME (hours); 0 = none. */
  idleMs?: number;
  maxMs?: number;
}

/** A plugged remote end (see `OpenSessionOptions.plug`). */
export interface PluggedRemote {
  shell: RemoteShell;
  orgId: string;
  display: { asset: string; account: string };
  /** How many commands it recorded under the session (for the session's row at its end). */
  commands(): number;
  /** Waits until its records are written. */
  finish(): Promise<void>;
}

export type EndReason = 'closed' | 'killed' | 'idle' | 'max_time' | 'error';

export class GatewaySession extends EventEmitter implements ControlTarget {
  readonly id = randomUUID();
  readonly stream: Duplex;
  private remote?: RemoteShell;
  private recorder?: Recorder;
  private streamer?: ReplayStreamer;
  private reader: CommandReader;
  private gate?: CommandGate;
  private decoder = new StringDecoder('utf8');
  private locked = false;
  private watchers = 0;
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
  private plugged?: PluggedRemote;

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

  get protocol(): string {
    return this.o.plug?.protocol ?? (this.o.k8s ? 'k8s' : 'ssh');
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
      protocol: this.protocol,
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
    this.streamer = await startStreaming(this.deps, rel, this.recorder);
    await db
      .insertInto('terminal_session')
      .values({
        ...row,
        asset: this.display.asset,
        account: this.display.account,
        replay_path: rel,
        replay_storage_id: this.streamer?.storageId ?? null,
        org_id: this.orgId,
      })
      .execute();
    logSession(this.deps.log, 'opened', this.logFields());
    const policy = new CommandPolicy(db, settings, {
      orgId: this.orgId,
      userId: o.user.id,
      assetId: o.assetId,
      username: account.username,
      remoteAddr: o.remoteAddr,
    });
    this.gate = new CommandGate(this.gateHost(), this.reader, this.echo, policy);
    this.deps.registry.add(this);
    const remote = this.remote!;
    // Only the asset's output times its echo and is read as its screen (not the gateway's own notices).
    remote.on('data', (b: Buffer) => {
      this.echo.output();
      this.output(this.decoder.write(b), true);
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
    if (o.plug) {
      const opened = await o.plug.open(this.id, size);
      this.orgId = opened.orgId;
      this.display = { ...this.display, ...opened.display };
      this.remote = opened.shell;
      this.plugged = opened;
      return undefined;
    }
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

  /**
   * Output to the user, the recording and any watcher; what the asset sent (`fromAsset`) also to
   * the command reader and the gate. The gateway's own messages stay out of the reader: it keeps
   * the screen as the shell drew it, so that the shell's answers (a new prompt after Ctrl+C) are
   * read where the shell put them.
   */
  private output(text: string, fromAsset = false): void {
    if (!text || this.ended) return;
    if (fromAsset) {
      this.reader.output(text);
      this.gate?.seen(text);
    }
    this.recorder?.output(text);
    if (this.watchers > 0) this.deps.registry.publishOutput(this.id, text);
    if (!this.stream.push(text)) this.remote?.pause();
  }

  /** A message of the gateway to the user, on a line of its own (recorded and seen by watchers too). */
  private say(message: string): void {
    this.output(`\r\n\x1b[31m${message}\x1b[0m\r\n`);
  }

  private notice(key: TerminalMessageKey, params?: TextParams): void {
    this.say(tm(this.o.lang, key, params));
  }

  resize(cols: number, rows: number): void {
    if (this.ended || !(cols > 0 && rows > 0)) return;
    this.cols = cols;
    this.rows = rows;
    this.remote?.resize(cols, rows);
    this.reader.resize(cols, rows);
    this.recorder?.resize(cols, rows);
  }

  /** The user's input: to the gate (`CommandGate`), which sends it on line by line. */
  private input(data: string): void {
    if (this.ended) return;
    this.lastInput = Date.now();
    if (this.locked) return;
    if (this.plugged) return this.send(data);
    this.gate?.input(data);
  }

  /** Writes to the asset; `key`: keystrokes of a command line, whose echo is timed. */
  private send(text: string, key = false): void {
    if (!text || this.ended) return;
    this.echo.sent(key);
    this.remote?.write(text);
  }

  /** What the gate needs of the session. */
  private gateHost(): GateHost {
    const o = this.o;
    return {
      lang: o.lang,
      reviewContext: {
        sessionId: this.id,
        userId: o.user.id,
        orgId: this.orgId,
        assetId: o.assetId,
        accountId: o.accountId,
      },
      isEnded: () => this.ended,
      isLocked: () => this.locked,
      send: (text, key) => this.send(text, key),
      say: (message) => this.say(message),
      record: (c) => this.store(c),
      recordOutput: async (id, output) => {
        await this.deps.db.updateTable('terminal_command').set({ output }).where('id', '=', id).execute();
      },
      warn: (command, verdict) =>
        warnCommandReviewers(
          { db: this.deps.db, bus: this.deps.bus, settings: this.deps.settings },
          this.labels(),
          command,
          verdict,
        ),
      end: () => void this.close('error'),
    };
  }

  private store(c: CommandRecord): Promise<string> {
    this.commandCount++;
    return recordCommand(this.deps.db, this.labels(), c);
  }

  private logFields() {
    const o = this.o;
    return { id: this.id, ...this.display, protocol: this.protocol, from: o.loginFrom };
  }

  private labels(): SessionLabels {
    return { sessionId: this.id, orgId: this.orgId, remoteAddr: this.o.remoteAddr, ...this.display };
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
    this.deps.registry.remove(this.id);
    this.remote?.end();
    const rest = this.decoder.end();
    if (rest) this.recorder?.output(rest);
    // Closing never rejects (callers do not wait for it): a recording that cannot be finished (its
    // folder gone, a full disk) leaves the row without a replay, and a row that cannot be written
    // (the database closing with the app) is finished by the next start's crash recovery.
    try {
      await this.gate?.stop();
      await this.gate?.finishPending().catch(() => undefined);
      await this.streamer?.stop();
      const gz = this.recorder ? await this.recorder.finish().catch(() => undefined) : undefined;
      if (this.plugged) {
        await this.plugged.finish().catch(() => undefined);
        this.commandCount += this.plugged.commands();
      }
      const stored = await archiveReplay(this.deps, gz, this.streamer);
      await this.deps.db
        .updateTable('terminal_session')
        .set({ ...endedSessionRow(this.deps.dataDir, gz, this.commandCount), ...stored })
        .where('id', '=', this.id)
        .execute();
      logSession(this.deps.log, 'closed', this.logFields(), {
        seconds: Math.round((Date.now() - this.started.getTime()) / 1000),
        commands: this.commandCount,
      });
      if (this.commandCount) await forwardCommands(this.deps, this.id);
    } catch {
      // See above: crash recovery finishes the row.
    } finally {
      this.reader.dispose();
      this.stream.push(null);
      this.emit('end', reason);
    }
  }
}
