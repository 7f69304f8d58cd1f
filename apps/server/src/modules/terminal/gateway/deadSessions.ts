import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import type { Cache } from '../../../platform/cache/cache.ts';
import { closeStream } from './recorder.ts';
import { archiveReplay, storeOfId, type ArchiveDeps } from '../storage/replayStorages.ts';
import { joinParts, partsPrefix } from '../storage/replayStream.ts';

/**
 * Sessions of gateways that are gone (docs/deploy.md): an instance killed outright leaves its
 * sessions open and its recordings half written, on its disk and, when the default replay storage
 * is an object store, streamed to it in parts (storage/replayStream.ts). Whichever instance finds
 * them first (at its start, or at its heartbeat once the dead one has been silent for 3 of them)
 * ends them at the dead instance's last heartbeat and makes their recordings replayable: from its
 * own disk when the file is there (the same instance starting again), else by joining the parts.
 * Every instance may sweep at once: a claim in the cache (Redis when shared) lets one do the work,
 * and the row is finished only while it is still open.
 */
export interface RecoveryDeps extends ArchiveDeps {
  cache?: Cache;
}

export interface OpenSessionRow {
  id: string;
  replay_path: string;
  replay_storage_id: string | null;
  date_start: string;
}

/** A claim outlives any join of parts; an instance that dies holding it leaves it to expire. */
const CLAIM_TTL_S = 300;

interface RecoveredReplay {
  replay_path: string;
  has_replay: boolean;
  replay_storage_id: string | null;
  /** When the recording was last written, if it was on this disk. */
  written?: string;
}

/** The recording of a session whose instance died, made replayable where it can be. */
export async function recoverReplay(
  deps: ArchiveDeps,
  row: { replay_path: string; replay_storage_id: string | null },
): Promise<RecoveredReplay> {
  const rel = row.replay_path;
  const none: RecoveredReplay = { replay_path: rel, has_replay: false, replay_storage_id: null };
  if (!rel) return none;
  const cast = rel.endsWith('.gz') ? rel.slice(0, -3) : rel;
  const dataDir = path.resolve(deps.dataDir);
  const file = path.resolve(dataDir, cast);
  if (!file.startsWith(dataDir + path.sep)) return none;
  const local = fs.existsSync(file) ? file : fs.existsSync(`${file}.gz`) ? `${file}.gz` : '';
  if (local) {
    const written = fs.statSync(local).mtime.toISOString();
    const gz = local.endsWith('.gz') ? local : await closeStream(local);
    const stored = await archiveReplay(deps, gz, await streamedTo(deps, cast, row.replay_storage_id));
    return {
      replay_path: path.relative(dataDir, gz).split(path.sep).join('/'),
      has_replay: true,
      replay_storage_id: stored.replay_storage_id,
      written,
    };
  }
  if (!row.replay_storage_id) return none;
  const store = await storeOfId(deps, row.replay_storage_id);
  if (!store) return none;
  // A store that fails throws: the session stays open for the next sweep rather than lose its parts.
  const key = await joinParts(store, cast);
  // No part streamed: the row keeps its `.cast` path for that instance's own next start.
  if (!key) return none;
  return { replay_path: key, has_replay: true, replay_storage_id: row.replay_storage_id };
}

/** The parts of a recording in the store it streamed to, for archiveReplay to remove. */
async function streamedTo(deps: ArchiveDeps, cast: string, storageId: string | null) {
  if (!storageId) return undefined;
  const store = await storeOfId(deps, storageId).catch(() => undefined);
  const parts = store ? await store.list(partsPrefix(cast)).catch(() => []) : [];
  return { storageId, parts };
}

/**
 * Ends one open session of a gone instance: at `endAt` (its last heartbeat; the last write of its
 * recording when that is later and on this disk), never before it started. Answers whether this
 * call ended it (false: another instance holds the claim or got there first).
 */
export async function endGoneSession(deps: RecoveryDeps, r: OpenSessionRow, endAt?: string): Promise<boolean> {
  const claim = `gh:gateway:gone:${r.id}`;
  if (deps.cache && (await deps.cache.incr(claim, CLAIM_TTL_S)) !== 1) return false;
  let replay: RecoveredReplay;
  try {
    replay = await recoverReplay(deps, r);
  } catch (e) {
    await deps.cache?.delete(claim).catch(() => undefined);
    throw e;
  }
  const dateEnd = [endAt, replay.written]
    .filter((t): t is string => Boolean(t))
    .reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a), r.date_start);
  const n = await countCommands(deps.db, r.id);
  const done = await deps.db
    .updateTable('terminal_session')
    .set({
      is_finished: true,
      date_end: dateEnd,
      has_replay: replay.has_replay,
      replay_path: replay.replay_path,
      replay_storage_id: replay.replay_storage_id,
      has_command: n > 0,
      command_amount: n,
      is_locked: false,
    })
    .where('id', '=', r.id)
    .where('is_finished', '=', false)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

async function countCommands(db: Kysely<DB>, sessionId: string): Promise<number> {
  const count = await db
    .selectFrom('terminal_command')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return Number(count?.n ?? 0);
}

/**
 * Ends the open sessions of instances silent since before `staleBefore` (not `selfId`), each at its
 * instance's last heartbeat; answers the ids this call ended.
 */
export async function sweepDeadInstances(deps: RecoveryDeps, selfId: string, staleBefore: string): Promise<string[]> {
  const rows = await deps.db
    .selectFrom('terminal_terminal as t')
    .innerJoin('terminal_session as s', 's.terminal_id', 't.id')
    .select(['s.id', 's.replay_path', 's.replay_storage_id', 's.date_start', 't.last_seen'])
    .where('t.last_seen', '<', staleBefore)
    .where('t.id', '<>', selfId)
    .where('s.is_finished', '=', false)
    .execute();
  const ended: string[] = [];
  for (const r of rows) {
    try {
      if (await endGoneSession(deps, r, r.last_seen)) ended.push(r.id);
    } catch (e) {
      deps.log?.info({ session: r.id, err: (e as Error).message }, 'ending a session of a dead instance failed');
    }
  }
  if (ended.length) deps.log?.info({ sessions: ended }, 'sessions of a dead instance ended at its last heartbeat');
  return ended;
}

/** Ends the open sessions of the given gone instances (at an instance's start). */
export async function endSessionsOf(
  deps: RecoveryDeps,
  terminals: { id: string; last_seen?: string }[],
): Promise<string[]> {
  if (!terminals.length) return [];
  const lastSeen = new Map(terminals.map((t) => [t.id, t.last_seen]));
  const rows = await deps.db
    .selectFrom('terminal_session')
    .select(['id', 'replay_path', 'replay_storage_id', 'date_start', 'terminal_id'])
    .where('is_finished', '=', false)
    .where('terminal_id', 'in', [...lastSeen.keys()])
    .execute();
  const ended: string[] = [];
  for (const r of rows) {
    try {
      if (await endGoneSession(deps, r, lastSeen.get(r.terminal_id))) ended.push(r.id);
    } catch (e) {
      // Left open: the heartbeat's sweep tries again.
      deps.log?.info({ session: r.id, err: (e as Error).message }, 'ending a session of a dead instance failed');
    }
  }
  return ended;
}

/**
 * What a previous run of this instance left on its disk after another instance ended its sessions
 * from the streamed parts: the local `.cast` goes (the store has the recording), or, when nothing
 * had been streamed, it becomes the recording.
 */
export async function finishLeftovers(deps: RecoveryDeps, terminals: { id: string; last_seen: string }[]) {
  for (const t of terminals) {
    const rows = await deps.db
      .selectFrom('terminal_session')
      .select(['id', 'replay_path', 'replay_storage_id', 'has_replay'])
      .where('terminal_id', '=', t.id)
      .where('is_finished', '=', true)
      .where('date_end', '>=', t.last_seen)
      .where('replay_path', '<>', '')
      .execute();
    for (const r of rows) {
      const cast = r.replay_path.endsWith('.gz') ? r.replay_path.slice(0, -3) : r.replay_path;
      const file = path.join(deps.dataDir, cast);
      if (!fs.existsSync(file)) continue;
      if (r.has_replay) {
        await fs.promises.rm(file, { force: true });
        continue;
      }
      const replay = await recoverReplay(deps, r);
      await deps.db
        .updateTable('terminal_session')
        .set({
          has_replay: replay.has_replay,
          replay_path: replay.replay_path,
          replay_storage_id: replay.replay_storage_id,
        })
        .where('id', '=', r.id)
        .execute();
    }
  }
}
