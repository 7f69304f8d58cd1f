import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Language } from '@gatehouse/contract';
import type { GatewayDeps } from '../gateway/gatewaySession.ts';
import type { ControlTarget } from '../gateway/control.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { Recorder, replayRelPath } from '../gateway/recorder.ts';
import { endedSessionRow, logSession, startedSessionRow } from '../gateway/sessionRecords.ts';
import { openTunnel } from '../gateway/sshConnect.ts';
import type { TypedLogin } from '../gateway/sshTarget.ts';
import { RfbAuthError, upstreamHandshake } from './rfbHandshake.ts';
import { recordedStream } from './rfbRecording.ts';
import { archiveReplay, startStreaming } from '../storage/replayStorages.ts';
import type { ReplayStreamer } from '../storage/replayStream.ts';
import { ClientFramer, RfbFrameError, ServerFramer } from './rfbFramer.ts';
import { resolveGraphicalTarget, type GraphicalProtocol, type GraphicalTarget } from './graphicalTarget.ts';
import { startRdpBridge, type RdpBridge } from './rdpBridge.ts';

/**
 * One graphical session through the gateway (docs/graphical.md): the browser's noVNC speaks RFB
 * to the gateway, which relays it to the asset's VNC server, or for RDP to an `x11vnc` showing a
 * per-session virtual display on which `xfreerdp` runs against the asset (`rdpBridge.ts`). The
 * gateway authenticates upstream with the vault's secret; the browser side has no password. The
 * RFB messages are framed as they pass (`rfbFramer.ts`) for the clipboard rules, the lock and the
 * idle clock; what the browser receives is recorded with timestamps (the `.cast` recorder's `d`
 * events, compressed at the end). Rows, limits and control (kill, lock, watch) are the terminal
 * sessions' (`gateway/gatewaySession.ts`, `gateway/control.ts`).
 */
export interface GraphicalOptions {
  user: { id: string; name: string; username: string };
  protocol: GraphicalProtocol;
  assetId: string;
  accountId: string;
  typed?: TypedLogin;
  lang: Language;
  loginFrom: 'WT';
  remoteAddr: string;
  /** The permission's clipboard directions (copy: asset -> browser; paste: browser -> asset) and drive redirection. */
  clipboard: { copy: boolean; paste: boolean };
  drive: { upload: boolean; download: boolean };
  /** The browser's screen size (RDP's desktop size). */
  width: number;
  height: number;
  idleMs?: number;
  maxMs?: number;
}

export type GraphicalEnd = 'closed' | 'killed' | 'idle' | 'max_time' | 'error';

/** Output to the browser waits while this many bytes are queued on its socket. */
const BEHIND_HIGH = 4 * 1024 * 1024;

export class GraphicalSession extends EventEmitter implements ControlTarget {
  readonly id = randomUUID();
  private upstream?: Duplex;
  private rdp?: RdpBridge;
  private recorder?: Recorder;
  private streamer?: ReplayStreamer;
  private target?: GraphicalTarget;
  private ended = false;
  private locked = false;
  private watchers = 0;
  private lastInput = Date.now();
  private readonly started = new Date();
  private limitTimer?: NodeJS.Timeout;
  private bitsPerPixel = 32;
  private early: Buffer = Buffer.alloc(0);
  private readonly toBrowser: ServerFramer;
  private readonly fromBrowser: ClientFramer;
  /** Sends bytes to the browser; answers the bytes still queued on its socket. */
  private sink?: (b: Buffer) => number;
  private drainWait?: NodeJS.Timeout;

  private constructor(
    private readonly deps: GatewayDeps,
    private readonly o: GraphicalOptions,
  ) {
    super();
    this.toBrowser = new ServerFramer({
      copy: () => o.clipboard.copy,
      bitsPerPixel: () => this.bitsPerPixel,
      serverInit: (i) => (this.bitsPerPixel = i.bitsPerPixel),
    });
    this.fromBrowser = new ClientFramer({
      paste: () => o.clipboard.paste,
      locked: () => this.locked,
      activity: () => (this.lastInput = Date.now()),
      pixelFormat: (bpp) => (this.bitsPerPixel = bpp),
    });
  }

  /** Connects and authenticates to the asset; a refusal throws a GatewayError (the row says why). */
  static async open(deps: GatewayDeps, o: GraphicalOptions): Promise<GraphicalSession> {
    const s = new GraphicalSession(deps, o);
    await s.start();
    return s;
  }

  get isLocked(): boolean {
    return this.locked;
  }

  get protocol(): GraphicalProtocol {
    return this.o.protocol;
  }

  private async start(): Promise<void> {
    const { db, secretBox, settings } = this.deps;
    const o = this.o;
    const user = `${o.user.name}(${o.user.username})`;
    const row = startedSessionRow({
      id: this.id,
      user,
      userId: o.user.id,
      assetId: o.assetId,
      accountId: o.accountId,
      protocol: o.protocol,
      loginFrom: o.loginFrom,
      remoteAddr: o.remoteAddr,
      terminalId: this.deps.terminalId,
      started: this.started,
    });
    try {
      this.target = await resolveGraphicalTarget(db, secretBox, o.lang, o.protocol, o.assetId, o.accountId, o.typed);
      this.upstream = await this.connect(this.target);
      this.early = await upstreamHandshake(this.upstream, this.rdp ? this.rdp.vncPassword : this.target.password);
    } catch (e) {
      this.upstream?.destroy();
      await this.rdp?.stop();
      const asset = await db
        .selectFrom('assets_asset')
        .select(['name', 'address', 'org_id'])
        .where('id', '=', o.assetId)
        .executeTakeFirst();
      const error =
        e instanceof GatewayError
          ? e
          : e instanceof RfbAuthError && e.kind === 'auth'
            ? new GatewayError('graphical_auth_failed', o.lang, { asset: this.target?.display.asset ?? o.assetId })
            : new GatewayError('connect_failed', o.lang, {
                target: this.target ? `${this.target.host}:${this.target.port}` : o.assetId,
                error: (e as Error).message,
              });
      await db
        .insertInto('terminal_session')
        .values({
          ...row,
          asset: this.target?.display.asset ?? (asset ? `${asset.name}(${asset.address})` : o.assetId),
          account: this.target?.display.account ?? o.accountId,
          is_success: false,
          is_finished: true,
          date_end: new Date().toISOString(),
          comment: error.message.slice(0, 1000),
          org_id: this.target?.orgId ?? asset?.org_id ?? '',
        })
        .execute();
      throw error;
    }
    const t = this.target;
    const rel = replayRelPath(this.id, this.started);
    this.recorder = new Recorder(path.join(this.deps.dataDir, rel), {
      width: o.width,
      height: o.height,
      timestamp: Math.floor(this.started.getTime() / 1000),
      title: `${user} ${t.display.account}@${t.display.asset}`,
      kind: 'rfb',
    });
    this.streamer = await startStreaming(this.deps, rel, this.recorder);
    await db
      .insertInto('terminal_session')
      .values({
        ...row,
        asset: t.display.asset,
        account: t.display.account,
        replay_path: rel,
        replay_storage_id: this.streamer?.storageId ?? null,
        org_id: t.orgId,
      })
      .execute();
    logSession(this.deps.log, 'opened', this.logFields());
    this.deps.registry.add(this);
    const up = this.upstream;
    up.on('data', (b: Buffer) => this.fromAsset(b));
    // The asset ended the connection (a logout): the session is over, not failed.
    up.once('close', () => void this.close('closed'));
    up.on('error', () => undefined);
    this.startLimits(
      o.idleMs ?? Number((await settings.get('SECURITY_MAX_IDLE_TIME')) ?? 0) * 60_000,
      o.maxMs ?? Number((await settings.get('SECURITY_MAX_SESSION_TIME')) ?? 0) * 3_600_000,
    );
  }

  /** A TCP stream to the VNC server: the asset's (through its domain gateway), or the RDP bridge's x11vnc. */
  private async connect(t: GraphicalTarget): Promise<Duplex> {
    if (t.protocol === 'rdp') {
      this.rdp = await startRdpBridge(this.deps, t, this.o);
      this.rdp.onEnd(() => void this.close('closed'));
      return this.unix(this.rdp.socket);
    }
    if (t.gateway) {
      const tunnel = await openTunnel(this.deps.db, this.o.lang, t.gateway, t);
      tunnel.sock.once('close', () => tunnel.jump.end());
      return tunnel.sock;
    }
    return this.tcp(t.host, t.port);
  }

  private unix(socket: string): Promise<Duplex> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ path: socket });
      s.once('connect', () => resolve(s));
      s.once('error', reject);
    });
  }

  /** The RDP helpers' pids while they run (tests check none is left). */
  helperPids(): number[] {
    return this.rdp?.pids() ?? [];
  }

  private tcp(host: string, port: number): Promise<Duplex> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ host, port, timeout: 15_000 });
      s.once('connect', () => {
        s.setTimeout(0);
        s.setNoDelay(true);
        resolve(s);
      });
      s.once('timeout', () => s.destroy(new Error('timed out')));
      s.once('error', reject);
    });
  }

  /**
   * The browser is ready (its handshake done, `rest` what it sent after): the relay starts, the
   * asset's bytes framed, filtered and recorded on their way to `send`.
   */
  attach(send: (b: Buffer) => number, rest: Buffer): void {
    this.sink = send;
    if (this.early.length) this.fromAsset(this.early);
    this.early = Buffer.alloc(0);
    if (rest.length) this.input(rest);
  }

  /** Bytes from the browser. */
  input(b: Buffer): void {
    if (this.ended) return;
    let out: Buffer;
    try {
      out = this.fromBrowser.push(b);
    } catch (e) {
      return this.protocolError(e);
    }
    if (out.length) this.upstream?.write(out);
  }

  private fromAsset(b: Buffer): void {
    if (this.ended) return;
    if (!this.sink) {
      this.early = Buffer.concat([this.early, b]);
      return;
    }
    let out: Buffer;
    try {
      out = this.toBrowser.push(b);
    } catch (e) {
      return this.protocolError(e);
    }
    if (!out.length) return;
    this.recorder?.data(out);
    if (this.watchers > 0) this.deps.registry.publishOutput(this.id, out.toString('base64'));
    if (this.sink(out) > BEHIND_HIGH) this.waitForBrowser();
  }

  /** The browser is behind: the asset's stream pauses until its socket drained. */
  private waitForBrowser(): void {
    if (this.drainWait || !this.upstream) return;
    this.upstream.pause();
    const check = () => {
      if (this.ended || !this.sink || this.sink(Buffer.alloc(0)) <= BEHIND_HIGH / 4) {
        this.drainWait = undefined;
        this.upstream?.resume();
      } else this.drainWait = setTimeout(check, 20);
    };
    this.drainWait = setTimeout(check, 20);
  }

  private protocolError(e: unknown): void {
    this.deps.log?.info({ session: this.id, error: (e as Error).message }, 'graphical session: unframeable RFB');
    if (e instanceof RfbFrameError) void this.close('error');
    else throw e;
  }

  private startLimits(idleMs: number, maxMs: number): void {
    const check = () => {
      if (this.ended) return;
      const now = Date.now();
      if (maxMs > 0 && now - this.started.getTime() >= maxMs) return void this.close('max_time');
      if (idleMs > 0 && now - this.lastInput >= idleMs) return void this.close('idle');
      const next = Math.min(
        maxMs > 0 ? this.started.getTime() + maxMs - now : Infinity,
        idleMs > 0 ? this.lastInput + idleMs - now : Infinity,
      );
      if (Number.isFinite(next)) this.limitTimer = setTimeout(check, Math.max(50, next + 10));
    };
    check();
  }

  private logFields() {
    const d = this.target?.display ?? { asset: this.o.assetId, account: this.o.accountId };
    return {
      id: this.id,
      user: `${this.o.user.name}(${this.o.user.username})`,
      ...d,
      protocol: this.o.protocol,
      from: this.o.loginFrom,
    };
  }

  // --- control (from the bus, any instance) ---

  kill(_by: string): void {
    void this.close('killed');
  }

  setLocked(locked: boolean, _by: string): void {
    if (this.ended || this.locked === locked) return;
    this.locked = locked;
    this.emit('lock', locked);
  }

  setWatched(delta: number): void {
    this.watchers = Math.max(0, this.watchers + delta);
    // A new watcher's decoder needs the stream from its start (ZRLE's zlib state runs across
    // updates): the recording so far goes out first, as `{"rfb_from_start": base64}`; the chunks
    // that follow on the channel are base64 strings. A watcher already following ignores it.
    if (delta > 0 && !this.ended && this.recorder) {
      this.recorder.flush();
      const sofar = recordedStream(fs.readFileSync(this.recorder.file, 'utf8'));
      this.deps.registry.publishOutput(this.id, JSON.stringify({ rfb_from_start: sofar.toString('base64') }));
    }
  }

  /** Ends the session: the asset's connection, the RDP helpers, the recording (compressed), the row finished. */
  async close(reason: GraphicalEnd = 'closed'): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.limitTimer);
    clearTimeout(this.drainWait);
    this.deps.registry.remove(this.id);
    this.upstream?.destroy();
    try {
      await this.rdp?.stop();
      await this.streamer?.stop();
      const gz = this.recorder ? await this.recorder.finish().catch(() => undefined) : undefined;
      // To the default replay storage as a terminal's recording (storage/replayStorages.ts).
      const stored = await archiveReplay(this.deps, gz, this.streamer);
      await this.deps.db
        .updateTable('terminal_session')
        .set({ ...endedSessionRow(this.deps.dataDir, gz, 0), ...stored })
        .where('id', '=', this.id)
        .execute();
      logSession(this.deps.log, 'closed', this.logFields(), {
        seconds: Math.round((Date.now() - this.started.getTime()) / 1000),
        commands: 0,
      });
    } catch {
      // The next start's crash recovery finishes the row (gateway/instance.ts).
    } finally {
      this.emit('end', reason);
    }
  }
}
