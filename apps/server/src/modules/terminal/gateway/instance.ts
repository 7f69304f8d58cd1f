import { USER_DEACTIVATED_CHANNEL } from '../../users/userEvents.ts';
import type { GatewayLog } from './sessionRecords.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import { closeStream } from './recorder.ts';
import { SessionRegistry } from './control.ts';
import { GatewayExec, type ExecEnd, type ExecIo, type ExecOptions } from './gatewayExec.ts';
import { GatewaySession, type GatewayDeps, type OpenSessionOptions } from './gatewaySession.ts';
import type { Bus } from '../../../platform/bus/index.ts';
import type { SettingsStore } from '../../settings/store.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';

/**
 * The built-in gateway of one running instance: its row in `terminal_terminal` (what
 * `/api/v1/terminal/terminals/` lists), refreshed every HEARTBEAT_MS with the load and the
 * number of sessions it holds, and its session registry on the bus. At start it closes what a
 * crash left behind: sessions of its own previous run (same name: host and port) and of
 * instances silent for STALE_MS are finished, their recording streams compressed.
 */
export const HEARTBEAT_MS = 30_000;
export const STALE_MS = 3 * HEARTBEAT_MS;

export interface InstanceOptions {
  db: Kysely<DB>;
  bus: Bus;
  settings: SettingsStore;
  secretBox: SecretBox;
  dataDir: string;
  /** Stable across restarts of the same instance: `<host>:<port>`. */
  name: string;
  remoteAddr?: string;
  /** Where sessions opened and closed are told (the app's logger). */
  log?: GatewayLog;
}

function load(): { cpu_load: number; memory_used: number } {
  const mem = os.totalmem();
  return {
    cpu_load: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    memory_used: Math.round(((mem - os.freemem()) / mem) * 1000) / 10,
  };
}

function processRuns(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Finishes sessions left unfinished by instances that are gone; answers their ids. */
export async function recoverUnfinished(db: Kysely<DB>, dataDir: string, terminalIds: string[]): Promise<string[]> {
  if (!terminalIds.length) return [];
  const rows = await db
    .selectFrom('terminal_session')
    .select(['id', 'replay_path', 'date_start'])
    .where('is_finished', '=', false)
    .where('terminal_id', 'in', terminalIds)
    .execute();
  for (const r of rows) {
    let replay = r.replay_path;
    let end = r.date_start;
    const file = replay ? path.join(dataDir, replay) : '';
    if (file && fs.existsSync(file) && !file.endsWith('.gz')) {
      end = fs.statSync(file).mtime.toISOString();
      await closeStream(file);
      replay = `${replay}.gz`;
    }
    const hasReplay = Boolean(replay) && fs.existsSync(path.join(dataDir, replay));
    const count = await db
      .selectFrom('terminal_command')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('session_id', '=', r.id)
      .executeTakeFirst();
    const n = Number(count?.n ?? 0);
    await db
      .updateTable('terminal_session')
      .set({
        is_finished: true,
        date_end: end,
        has_replay: hasReplay,
        replay_path: hasReplay ? replay : '',
        has_command: n > 0,
        command_amount: n,
        is_locked: false,
      })
      .where('id', '=', r.id)
      .execute();
  }
  return rows.map((r) => r.id);
}

export class GatewayInstance {
  readonly id = randomUUID();
  readonly registry: SessionRegistry;
  private timer?: NodeJS.Timeout;
  private unsubscribeUsers?: () => Promise<void>;
  private readonly sessions = new Set<GatewaySession>();
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
    };
  }

  async start(): Promise<void> {
    const { db } = this.o;
    const stale = new Date(Date.now() - STALE_MS).toISOString();
    const gone = await db
      .selectFrom('terminal_terminal')
      .select(['id', 'name', 'pid', 'last_seen'])
      .where((eb) => eb.or([eb('name', '=', this.o.name), eb('last_seen', '<', stale)]))
      .execute();
    const goneIds = gone.filter((g) => g.last_seen < stale || !processRuns(Number(g.pid))).map((g) => g.id);
    await recoverUnfinished(db, this.o.dataDir, goneIds);
    // Sessions whose instance row is missing altogether (deleted by hand) are gone too.
    const orphans = await db
      .selectFrom('terminal_session')
      .select('terminal_id')
      .distinct()
      .where('is_finished', '=', false)
      .where('terminal_id', 'not in', db.selectFrom('terminal_terminal').select('id'))
      .execute();
    await recoverUnfinished(
      db,
      this.o.dataDir,
      orphans.map((r) => r.terminal_id),
    );
    if (goneIds.length) await db.deleteFrom('terminal_terminal').where('id', 'in', goneIds).execute();
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
        ...load(),
        disk_used: 0,
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
    this.timer = setInterval(() => void this.heartbeat().catch(() => undefined), HEARTBEAT_MS);
    this.timer.unref();
  }

  async heartbeat(): Promise<void> {
    await this.endSessionsOfUnusableUsers();
    await this.o.db
      .updateTable('terminal_terminal')
      .set({ last_seen: new Date().toISOString(), session_online: this.registry.size, ...load() })
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
