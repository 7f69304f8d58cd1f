import { USER_DEACTIVATED_CHANNEL } from '../../users/userEvents.ts';
import type { GatewayLog } from './sessionRecords.ts';
import fs from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import { endGoneSession, endSessionsOf, finishLeftovers, sweepDeadInstances } from './deadSessions.ts';
import { processRuns } from './processRuns.ts';
import { SessionRegistry } from './control.ts';
import { GatewayExec, type ExecEnd, type ExecIo, type ExecOptions } from './gatewayExec.ts';
import { GatewaySession, type GatewayDeps, type OpenSessionOptions } from './gatewaySession.ts';
import { GraphicalSession, type GraphicalOptions } from '../graphical/graphicalSession.ts';
import { reapOrphanedHelpers } from '../graphical/rdpBridge.ts';
import type { Bus } from '../../../platform/bus/index.ts';
import type { SettingsStore } from '../../settings/store.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import type { Cache } from '../../../platform/cache/cache.ts';

/**
 * The built-in gateway of one running instance: its row in `terminal_terminal` (what
 * `/api/v1/terminal/terminals/` lists), refreshed every heartbeat (`GATEWAY_HEARTBEAT_MS`, default
 * HEARTBEAT_MS) with the load and the number of sessions it holds, and its session registry on the
 * bus. At start it closes what a crash left behind: sessions of its own previous run (same name:
 * host and port) and of instances silent for 3 heartbeats; at every heartbeat it ends the sessions
 * of instances that have gone silent since (deadSessions.ts), at their last heartbeat.
 */
export const HEARTBEAT_MS = 30_000;

/** An instance silent for this long is dead: three of the deployment's heartbeats. */
export function staleMs(heartbeatMs: number | undefined): number {
  return 3 * (heartbeatMs ?? HEARTBEAT_MS);
}

export interface InstanceOptions {
  db: Kysely<DB>;
  bus: Bus;
  settings: SettingsStore;
  secretBox: SecretBox;
  dataDir: string;
  /** Stable across restarts of the same instance: `<host>:<port>`. */
  name: string;
  remoteAddr?: string;
  /** Graphical sessions held at once (LIMIT_GRAPHICAL_SESSIONS); beyond it a new one is refused. */
  graphicalLimit?: number;
  /** Where sessions opened and closed are told (the app's logger). */
  log?: GatewayLog;
  /** Claims on the sessions of dead instances, so one instance ends each (Redis when shared). */
  cache?: Cache;
  /** `GATEWAY_HEARTBEAT_MS` (HEARTBEAT_MS); an instance silent for 3 is dead. */
  heartbeatMs?: number;
  /** `REPLAY_STREAM_MS`: how often running recordings go to an object store (storage/replayStream.ts). */
  replayStreamMs?: number;
}

function load(dataDir: string): { cpu_load: number; memory_used: number; disk_used: number } {
  const mem = os.totalmem();
  return {
    cpu_load: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    memory_used: Math.round(((mem - os.freemem()) / mem) * 1000) / 10,
    disk_used: diskUsed(dataDir),
  };
}

/** Percent used of the file system holding the data directory (recordings, uploads), as `df` shows it. */
function diskUsed(dataDir: string): number {
  try {
    const s = fs.statfsSync(dataDir);
    const used = s.blocks - s.bfree;
    const total = used + s.bavail;
    return total > 0 ? Math.round((used / total) * 1000) / 10 : 0;
  } catch {
    return 0;
  }
}

export class GatewayInstance {
  readonly id = randomUUID();
  readonly registry: SessionRegistry;
  private timer?: NodeJS.Timeout;
  private unsubscribeUsers?: () => Promise<void>;
  private readonly sessions = new Set<GatewaySession | GraphicalSession>();
  private graphical = 0;
  private readonly execs = new Map<GatewayExec, Promise<ExecEnd>>();

  constructor(private readonly o: InstanceOptions) {
    this.registry = new SessionRegistry(o.bus);
  }

  get name(): string {
    return this.o.name;
  }

  /** What a GatewaySession needs from this instance. */
  deps(): GatewayDeps {
    return {
      db: this.o.db,
      settings: this.o.settings,
      secretBox: this.o.secretBox,
      bus: this.o.bus,
      dataDir: this.o.dataDir,
      registry: this.registry,
      terminalId: this.id,
      ...(this.o.log ? { log: this.o.log } : {}),
      ...(this.o.replayStreamMs ? { replayStreamMs: this.o.replayStreamMs } : {}),
    };
  }

  private get heartbeatMs(): number {
    return this.o.heartbeatMs ?? HEARTBEAT_MS;
  }

  private recoveryDeps() {
    const { db, secretBox, dataDir, cache, log } = this.o;
    return { db, secretBox, dataDir, ...(cache ? { cache } : {}), ...(log ? { log } : {}) };
  }

  /**
   * Ends the open sessions of instances silent for 3 heartbeats, at their last one; safe on every
   * instance at once (deadSessions.ts). Answers the ids this instance ended.
   */
  async sweep(): Promise<string[]> {
    const stale = new Date(Date.now() - staleMs(this.heartbeatMs)).toISOString();
    return sweepDeadInstances(this.recoveryDeps(), this.id, stale);
  }

  async start(): Promise<void> {
    const { db } = this.o;
    const deps = this.recoveryDeps();
    const stale = new Date(Date.now() - staleMs(this.heartbeatMs)).toISOString();
    const gone = (
      await db
        .selectFrom('terminal_terminal')
        .select(['id', 'name', 'pid', 'last_seen'])
        .where((eb) => eb.or([eb('name', '=', this.o.name), eb('last_seen', '<', stale)]))
        .execute()
    ).filter((g) => g.last_seen < stale || !processRuns(Number(g.pid)));
    const goneIds = gone.map((g) => g.id);
    await endSessionsOf(deps, gone);
    // Its own previous run's recordings that another instance ended from the store's parts.
    await finishLeftovers(
      deps,
      gone.filter((g) => g.name === this.o.name),
    );
    // Sessions whose instance row is missing altogether (deleted by hand) are gone too; their end
    // is the last write of the recording when it is on this disk, else their start.
    const orphans = await db
      .selectFrom('terminal_session')
      .select(['id', 'replay_path', 'replay_storage_id', 'date_start'])
      .where('is_finished', '=', false)
      .where('terminal_id', 'not in', db.selectFrom('terminal_terminal').select('id'))
      .execute();
    for (const r of orphans) await endGoneSession(deps, r).catch(() => undefined);
    if (goneIds.length) await db.deleteFrom('terminal_terminal').where('id', 'in', goneIds).execute();
    // RDP helpers of a gateway process that died without ending them (graphical/rdpBridge.ts).
    reapOrphanedHelpers();
    const now = new Date().toISOString();
    await db
      .insertInto('terminal_terminal')
      .values({
        id: this.id,
        name: this.o.name,
        type: 'gatehouse',
        remote_addr: this.o.remoteAddr ?? '',
        pid: process.pid,
        session_online: 0,
        ...load(this.o.dataDir),
        last_seen: now,
        date_created: now,
        comment: '',
      })
      .execute();
    await this.registry.start();
    // A user deactivated in the console loses their sessions at once, on every instance.
    this.unsubscribeUsers = await this.o.bus.subscribe(USER_DEACTIVATED_CHANNEL, (m) => {
      const user = (m as { user_id?: unknown }).user_id;
      if (typeof user === 'string') void this.endSessionsOf(user).catch(() => undefined);
    });
    this.timer = setInterval(
      () =>
        void this.heartbeat()
          .then(() => this.sweep())
          .catch(() => undefined),
      this.heartbeatMs,
    );
    this.timer.unref();
  }

  async heartbeat(): Promise<void> {
    await this.endSessionsOfUnusableUsers();
    await this.o.db
      .updateTable('terminal_terminal')
      .set({ last_seen: new Date().toISOString(), session_online: this.registry.size, ...load(this.o.dataDir) })
      .where('id', '=', this.id)
      .execute();
  }

  /**
   * Ends this instance's sessions (terminals and commands) whose user may no longer sign in:
   * deactivated, expired (which needs no write, so the heartbeat looks) or gone.
   */
  async endSessionsOfUnusableUsers(): Promise<void> {
    const ids = this.registry.ids();
    if (!ids.length) return;
    const now = new Date().toISOString();
    const rows = await this.o.db
      .selectFrom('terminal_session as s')
      .leftJoin('users_user as u', 'u.id', 's.user_id')
      .select('s.id')
      .where('s.id', 'in', ids)
      .where((eb) => eb.or([eb('u.id', 'is', null), eb('u.is_active', '=', false), eb('u.date_expired', '<', now)]))
      .execute();
    if (rows.length)
      await this.registry.kill(
        rows.map((r) => r.id),
        'Gatehouse',
      );
  }

  /** Ends this instance's sessions of one user. */
  private async endSessionsOf(userId: string): Promise<void> {
    const ids = this.registry.ids();
    if (!ids.length) return;
    const rows = await this.o.db
      .selectFrom('terminal_session')
      .select('id')
      .where('id', 'in', ids)
      .where('user_id', '=', userId)
      .execute();
    if (rows.length)
      await this.registry.kill(
        rows.map((r) => r.id),
        'Gatehouse',
      );
  }

  /** Opens a session on this instance (see GatewaySession); it ends with the instance. */
  async openSession(o: OpenSessionOptions): Promise<GatewaySession> {
    const s = await GatewaySession.open(this.deps(), o);
    this.sessions.add(s);
    s.once('end', () => this.sessions.delete(s));
    return s;
  }

  /**
   * Opens a graphical session (VNC, RDP) on this instance; beyond the instance's limit of
   * graphical sessions (counted from the moment one starts opening) it answers `undefined`.
   */
  async openGraphical(o: GraphicalOptions): Promise<GraphicalSession | undefined> {
    if (this.graphical >= this.graphicalLimit) return undefined;
    this.graphical++;
    let s: GraphicalSession;
    try {
      s = await GraphicalSession.open(this.deps(), o);
    } catch (e) {
      this.graphical--;
      throw e;
    }
    this.sessions.add(s);
    s.once('end', () => {
      this.graphical--;
      this.sessions.delete(s);
    });
    return s;
  }

  get graphicalLimit(): number {
    return this.o.graphicalLimit ?? 20;
  }

  /** Runs one command by exec on this instance (see GatewayExec); it is killed when the instance stops. */
  async runExec(o: ExecOptions, io: ExecIo): Promise<ExecEnd> {
    const x = new GatewayExec(this.deps(), o, io);
    const running = x.run();
    this.execs.set(x, running);
    return running.finally(() => this.execs.delete(x));
  }

  /** A clean stop: sessions end (recordings compressed, rows finished) and the row goes. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.unsubscribeUsers?.();
    for (const x of this.execs.keys()) x.kill('stop');
    await Promise.all([...this.execs.values()].map((p) => p.catch(() => undefined)));
    await Promise.all([...this.sessions].map((s) => s.close('killed').catch(() => undefined)));
    await this.registry.stop();
    await this.o.db.deleteFrom('terminal_terminal').where('id', '=', this.id).execute();
  }
}

export function instanceName(port: number | string): string {
  return `${os.hostname()}:${port}`;
}
