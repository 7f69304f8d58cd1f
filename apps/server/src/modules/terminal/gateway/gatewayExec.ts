import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { ClientChannel } from 'ssh2';
import type { Language, TextParams } from '@gatehouse/contract';
import { ACTION_BITS } from '../../perms/actions.ts';
import { CommandPolicy, RISK, type CommandVerdict } from './commandPolicy.ts';
import { OutputExcerpt } from './commandReader.ts';
import {
  endedSessionRow,
  logSession,
  recordCommand,
  startedSessionRow,
  warnCommandReviewers,
  type SessionLabels,
} from './sessionRecords.ts';
import { archiveReplay, startStreaming } from '../storage/replayStorages.ts';
import type { ReplayStreamer } from '../storage/replayStream.ts';
import { forwardCommands } from '../storage/commandStorages.ts';
import type { ControlTarget } from './control.ts';
import { GatewayError, tm, type TerminalMessageKey } from './gatewayError.ts';
import type { GatewayDeps } from './gatewaySession.ts';
import { Recorder, replayRelPath } from './recorder.ts';
import { openSsh, type SshLink } from './sshConnect.ts';
import { resolveTarget } from './sshTarget.ts';

/**
 * One command run on an asset by an SSH exec request (`ssh <user>@<account>@<asset>@<gatehouse>
 * '<command>'`, `sshServer.ts`): a session row of its own (login from ST) with one command. An
 * exec is a shell command line with an input stream: `cat > f` writes a file, `scp -f` or
 * `"sc"p` reads one, `bash -s` runs whatever comes on its input. Neither a prefix test nor the
 * command filter can judge that, so before anything reaches the asset:
 * - the permission must hold both the upload and the download action on the account (else
 *   refused: `exec_needs_transfer`);
 * - no reject or review command filter rule may apply to the session here and now (else refused:
 *   `exec_command_rules`; those rules need an interactive session, where each line is read);
 * - the command line then meets the remaining rules (warning: run, reviewers told).
 * A refusal says why on stderr, exits 1, and is recorded: the command (risk 5, the message as its
 * output) and the session (unsuccessful, the message as comment). The asset's stdout and stderr
 * stay apart and its exit status comes back, so scripts work as with plain ssh; output, errors and
 * the input sent (asciicast `i` events) are recorded, output and errors kept as the command's
 * excerpt. Killed, locked (input held back) and watched through the registry like a terminal;
 * SECURITY_MAX_SESSION_TIME ends it.
 */
export interface ExecOptions {
  user: { id: string; name: string; username: string };
  assetId: string;
  /** A stored account's id (a virtual account would ask for its login: not for a command). */
  accountId: string;
  command: string;
  lang: Language;
  remoteAddr: string;
  /** The client asked for a terminal (`ssh -t`): the command runs under one of this size. */
  pty?: { term: string; cols: number; rows: number };
  /** The permission's actions on the account (`ACTION_BITS`): an exec needs upload and download. */
  actions: number;
}

/** The client's end: its input, and where the asset's output and errors go. */
export interface ExecIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** How the command ended: its exit code, or the signal that ended it. */
export type ExecEnd = { code: number } | { signal: string };

export class GatewayExec implements ControlTarget {
  readonly id = randomUUID();
  private link?: SshLink;
  private channel?: ClientChannel;
  private recorder?: Recorder;
  private streamer?: ReplayStreamer;
  private readonly excerpt = new OutputExcerpt();
  private readonly started = new Date();
  private labels: SessionLabels;
  private commandId?: string;
  private watchers = 0;
  private ended = false;
  /** Killed or out of time: what is still opening closes as soon as it is open. */
  private stopped = false;

  constructor(
    private readonly deps: GatewayDeps,
    private readonly o: ExecOptions,
    private readonly io: ExecIo,
  ) {
    const user = `${o.user.name}(${o.user.username})`;
    this.labels = { sessionId: this.id, orgId: '', remoteAddr: o.remoteAddr, user, asset: '', account: '' };
  }
  private logFields() {
    const { user, asset, account } = this.labels;
    return { id: this.id, user, asset, account, protocol: 'ssh', from: 'ST (exec)' };
  }

  /** Runs the command; a refusal before the session exists (no secret, su needed...) throws a GatewayError. */
  async run(): Promise<ExecEnd> {
    const { db, secretBox, settings } = this.deps;
    const o = this.o;
    const t = await resolveTarget(db, secretBox, o.lang, o.assetId, o.accountId);
    if (t.su) throw new GatewayError('exec_su', o.lang, { account: t.display.account });
    this.labels = { ...this.labels, orgId: t.orgId, ...t.display };
    const rel = replayRelPath(this.id, this.started);
    this.recorder = new Recorder(path.join(this.deps.dataDir, rel), {
      width: o.pty?.cols ?? 80,
      height: o.pty?.rows ?? 24,
      timestamp: Math.floor(this.started.getTime() / 1000),
      title: `${this.labels.user} ${this.labels.account}@${this.labels.asset}`,
      env: { TERM: o.pty?.term ?? 'xterm-256color' },
    });
    this.streamer = await startStreaming(this.deps, rel, this.recorder);
    await db
      .insertInto('terminal_session')
      .values({
        ...startedSessionRow({
          id: this.id,
          user: this.labels.user,
          userId: o.user.id,
          assetId: o.assetId,
          accountId: o.accountId,
          protocol: 'ssh',
          loginFrom: 'ST',
          remoteAddr: o.remoteAddr,
          terminalId: this.deps.terminalId,
          started: this.started,
        }),
        asset: t.display.asset,
        account: t.display.account,
        replay_path: rel,
        replay_storage_id: this.streamer?.storageId ?? null,
        org_id: t.orgId,
      })
      .execute();
    logSession(this.deps.log, 'opened', this.logFields());
    this.deps.registry.add(this);
    const maxMs = Number((await settings.get('SECURITY_MAX_SESSION_TIME')) ?? 0) * 3_600_000;
    const limit = maxMs > 0 ? setTimeout(() => this.stop('session_max_time', { hours: maxMs / 3_600_000 }), maxMs) : 0;
    try {
      return await this.decideAndRun(t);
    } catch (e) {
      const error =
        e instanceof GatewayError
          ? e
          : new GatewayError('connect_failed', o.lang, {
              target: this.labels.asset,
              error: (e as Error).message,
            });
      this.say(error.message);
      await db
        .updateTable('terminal_session')
        .set({ is_success: false, comment: error.message.slice(0, 1000) })
        .where('id', '=', this.id)
        .execute();
      return { code: 1 };
    } finally {
      clearTimeout(limit);
      await this.finish();
    }
  }

  /** The exec's conditions and the command filter rules, then the command on the asset (or the refusal). */
  private async decideAndRun(t: Awaited<ReturnType<typeof resolveTarget>>): Promise<ExecEnd> {
    const { db, settings, bus } = this.deps;
    const { command, lang } = this.o;
    const store = async (risk: number, verdict: CommandVerdict | undefined, output = '') => {
      this.commandId = await recordCommand(db, this.labels, { command, risk, verdict, output });
    };
    // Recorded as refused, then said on stderr and noted on the session (run()'s catch).
    const refuse = async (key: TerminalMessageKey, verdict?: CommandVerdict): Promise<never> => {
      const error = new GatewayError(key, lang, verdict ? { rule: verdict.ruleName } : undefined);
      await store(RISK.reject, verdict, error.message);
      throw error;
    };
    const transfer = ACTION_BITS.upload | ACTION_BITS.download;
    if ((this.o.actions & transfer) !== transfer) return refuse('exec_needs_transfer');
    const policy = new CommandPolicy(db, settings, {
      orgId: t.orgId,
      userId: this.o.user.id,
      assetId: this.o.assetId,
      username: t.target.credentials.username,
      remoteAddr: this.o.remoteAddr,
    });
    const restricting = await policy.restricting();
    if (restricting) return refuse('exec_command_rules', restricting);
    const verdict = await policy.check(command);
    const action = verdict?.action ?? 'accept';
    // A reject or review rule made between the two reads.
    if (action === 'reject' || action === 'review') return refuse('exec_command_rules', verdict);
    await store(action === 'warning' ? RISK.warning : RISK.accept, verdict);
    if (action === 'warning') await warnCommandReviewers({ db, bus, settings }, this.labels, command, verdict!);
    return this.execute(t);
  }

  /** The command on the asset: input passed on, output and errors back apart, then its exit status. */
  private async execute(t: Awaited<ReturnType<typeof resolveTarget>>): Promise<ExecEnd> {
    const { pty } = this.o;
    const stoppedEnd: ExecEnd = { signal: 'KILL' };
    if (this.stopped) return stoppedEnd;
    this.link = await openSsh(this.deps.db, this.o.lang, t.target, t.gateway);
    if (this.stopped) return stoppedEnd;
    const channel = await new Promise<ClientChannel>((resolve, reject) =>
      this.link!.client.exec(
        this.o.command,
        pty ? { pty: { term: pty.term, cols: pty.cols, rows: pty.rows } } : {},
        (err, ch) => (err ? reject(err) : resolve(ch)),
      ),
    );
    this.channel = channel;
    if (this.stopped) {
      channel.close();
      return stoppedEnd;
    }
    const { stdin, stdout, stderr } = this.io;
    const input = new StringDecoder('utf8');
    const toAsset = (b: Buffer) => {
      this.recorder?.input(input.write(b));
      void channel.write(b);
    };
    stdin.on('data', toAsset);
    stdin.once('end', () => channel.end());
    const relay = (to: Writable, decoder: StringDecoder) => (b: Buffer) => {
      this.seen(decoder.write(b));
      if (to.writable && !to.write(b)) {
        channel.pause();
        to.once('drain', () => channel.resume());
      }
    };
    channel.on('data', relay(stdout, new StringDecoder('utf8')));
    channel.stderr.on('data', relay(stderr, new StringDecoder('utf8')));
    // ssh2 closes a session channel once its output is read, with the exit status (code, or null and
    // the signal) as arguments (node_modules/ssh2/lib/utils.js, onCHANNEL_CLOSE): an exit-status
    // that came in the same read as the channel's opening is not lost. Errors close on their own.
    const closed = new Promise<ExecEnd>((resolve) => {
      channel.once('close', (code: number | null | undefined, signal?: string) =>
        resolve(typeof code === 'number' ? { code } : signal ? { signal } : { code: 255 }),
      );
      this.link!.client.once('error', () => resolve({ code: 255 }));
    });
    const errorsRead = new Promise<void>((resolve) => channel.stderr.once('close', () => resolve()));
    const end = await closed;
    await Promise.race([errorsRead, new Promise((r) => setTimeout(r, 1000))]);
    stdin.off('data', toAsset);
    return end;
  }

  /** The asset's output: recorded (without a terminal, a bare newline also returns the cursor), excerpted, watched. */
  private seen(text: string): void {
    if (!text) return;
    const shown = this.o.pty ? text : text.replace(/(?<!\r)\n/g, '\r\n');
    this.recorder?.output(shown);
    this.excerpt.add(text);
    if (this.watchers > 0) this.deps.registry.publishOutput(this.id, shown);
  }

  /** A message of the gateway on the client's stderr (recorded too). */
  private say(message: string): void {
    const line = `${message}\r\n`;
    if (this.io.stderr.writable) this.io.stderr.write(this.o.pty ? line : `${message}\n`);
    this.recorder?.output(`\x1b[31m${message}\x1b[0m\r\n`);
    if (this.watchers > 0) this.deps.registry.publishOutput(this.id, line);
  }

  /** Ends the command early (killed, out of time): the asset's channel closes, its end comes back. */
  private stop(key: TerminalMessageKey, params?: TextParams): void {
    if (this.ended || this.stopped) return;
    this.stopped = true;
    this.say(tm(this.o.lang, key, params));
    this.channel?.close();
    this.link?.end();
  }

  private async finish(): Promise<void> {
    this.ended = true;
    this.deps.registry.remove(this.id);
    this.link?.end();
    const { db, dataDir } = this.deps;
    // As a terminal session's close (gatewaySession.ts): never throws; crash recovery finishes the row.
    try {
      await this.streamer?.stop();
      const gz = this.recorder ? await this.recorder.finish().catch(() => undefined) : undefined;
      const output = this.excerpt.take(false);
      if (this.commandId && output)
        await db.updateTable('terminal_command').set({ output }).where('id', '=', this.commandId).execute();
      const stored = await archiveReplay(this.deps, gz, this.streamer);
      await db
        .updateTable('terminal_session')
        .set({ ...endedSessionRow(dataDir, gz, this.commandId ? 1 : 0), ...stored })
        .where('id', '=', this.id)
        .execute();
      logSession(this.deps.log, 'closed', this.logFields(), {
        seconds: Math.round((Date.now() - this.started.getTime()) / 1000),
        commands: this.commandId ? 1 : 0,
      });
      if (this.commandId) await forwardCommands(this.deps, this.id);
    } catch {
      // See above.
    }
  }

  // --- control (from the bus, any instance) ---

  kill(_by: string): void {
    this.stop('session_killed');
  }

  /** Locked, the client's input waits (it is not lost); the output goes on. */
  setLocked(locked: boolean, _by: string): void {
    if (this.ended) return;
    if (locked) this.io.stdin.pause();
    else this.io.stdin.resume();
    this.say(tm(this.o.lang, locked ? 'session_locked' : 'session_unlocked'));
  }

  setWatched(delta: number): void {
    this.watchers = Math.max(0, this.watchers + delta);
  }
}
