import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { REPLAY_STORAGE_META, type ReplayStorageType } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { objectStore, type ObjectStore } from './objectStores.ts';
import { openedMeta, parseMeta } from './storageMeta.ts';
import { ReplayStreamer, removeParts, type StreamSource } from './replayStream.ts';

/**
 * Where recordings are kept (`terminal_replaystorage`, migration 1250). A session's recording is
 * written locally while it runs (gateway/recorder.ts); when it ends, `archiveReplay` moves the
 * compressed file to the default storage if that is an object store, and the row names the storage
 * (`replay_storage_id`), so any instance reads it back (`openReplay`). A failed upload keeps the
 * file local: the recording is never lost to a storage that is down. While the session runs, its
 * lines are streamed to that store too (`startStreaming`, replayStream.ts), for the instance that
 * dies mid-session (gateway/deadSessions.ts).
 */
export interface StorageRow {
  id: string;
  type: string;
  meta: string;
}

export function storeOf(row: StorageRow, box: SecretBox): ObjectStore | undefined {
  if (row.type === 'server') return undefined;
  const fields = REPLAY_STORAGE_META[row.type as ReplayStorageType] ?? [];
  return objectStore(row.type as ReplayStorageType, openedMeta(fields, parseMeta(row.meta), box));
}

export async function defaultStorage(db: Kysely<DB>) {
  return db.selectFrom('terminal_replaystorage').selectAll().where('is_default', '=', true).executeTakeFirst();
}

export interface ArchiveDeps {
  db: Kysely<DB>;
  secretBox: SecretBox;
  dataDir: string;
  log?: { info: (fields: Record<string, unknown>, message: string) => void };
}

/**
 * Moves a finished recording (`gz`, under the data directory) to the default storage when that is
 * an object store; answers the row's replay columns. The object's key is the same relative path
 * the local file had, so a storage can be browsed by date.
 */
export async function archiveReplay(
  deps: ArchiveDeps,
  gz: string | undefined,
  /** The store a running session streamed its parts to (ReplayStreamer), and those parts. */
  streamed?: { storageId: string; parts: string[] },
): Promise<{ replay_storage_id: string | null }> {
  if (!gz) return { replay_storage_id: null };
  // A streamed recording ends in the store its parts went to, even if the default changed since.
  const storage = streamed
    ? await storageById(deps.db, streamed.storageId)
    : await defaultStorage(deps.db).catch(() => undefined);
  if (!storage || storage.type === 'server') return { replay_storage_id: null };
  const key = path.relative(deps.dataDir, gz).split(path.sep).join('/');
  const store = storeOf(storage, deps.secretBox)!;
  const moved = await moveToStore(store, key, gz, streamed?.parts ?? [], (err) =>
    deps.log?.info({ storage: storage.name, err }, 'replay upload failed, kept locally'),
  );
  return { replay_storage_id: moved ? storage.id : null };
}

/**
 * Puts a finished recording in its store and removes the local file. Either way the parts streamed
 * while it ran are removed: the whole recording now exists once, in the store or, when the upload
 * failed, on this instance's disk (the row says which), and parts left behind would only fill the
 * store (no retention lists them).
 */
export async function moveToStore(
  store: ObjectStore,
  key: string,
  gz: string,
  parts: string[],
  failed: (err: string) => void,
): Promise<boolean> {
  let moved = false;
  try {
    await store.put(key, gz);
    await fs.promises.rm(gz, { force: true });
    moved = true;
  } catch (e) {
    failed((e as Error).message);
  }
  await removeParts(store, parts);
  return moved;
}

/** The store of a storage row by id; undefined for the local one or a storage gone. */
export async function storeOfId(deps: ArchiveDeps, id: string): Promise<ObjectStore | undefined> {
  const storage = await storageById(deps.db, id);
  return storage ? storeOf(storage, deps.secretBox) : undefined;
}

function storageById(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('terminal_replaystorage')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
    .catch(() => undefined);
}

/**
 * Starts streaming a running session's recording (`rel`, relative to the data directory) to the
 * default storage when that is an object store; answers undefined for the built-in local storage
 * (nothing changes for one instance on its own disk).
 */
export async function startStreaming(
  deps: ArchiveDeps & { replayStreamMs?: number },
  rel: string,
  source: StreamSource,
): Promise<ReplayStreamer | undefined> {
  const storage = await defaultStorage(deps.db).catch(() => undefined);
  if (!storage || storage.type === 'server') return undefined;
  let store: ObjectStore | undefined;
  try {
    store = storeOf(storage, deps.secretBox);
  } catch {
    return undefined;
  }
  if (!store) return undefined;
  return new ReplayStreamer(store, storage.id, rel, source, deps.replayStreamMs ?? 1000, deps.log);
}

/** The recording of a session row as a stream, or undefined when it is nowhere to be found. */
export async function openReplay(
  deps: ArchiveDeps,
  row: { replay_path: unknown; replay_storage_id?: unknown },
): Promise<Readable | undefined> {
  const rel = String(row.replay_path ?? '');
  if (!rel.endsWith('.gz')) return undefined;
  if (row.replay_storage_id) {
    const storage = await storageById(deps.db, String(row.replay_storage_id));
    const store = storage && storeOf(storage, deps.secretBox);
    if (!store) return undefined;
    try {
      return await store.get(rel);
    } catch (e) {
      if ((e as { code?: string }).code === 'NotFound') return undefined;
      throw e;
    }
  }
  const dataDir = path.resolve(deps.dataDir);
  const file = path.resolve(dataDir, rel);
  if (!file.startsWith(dataDir + path.sep) || !fs.existsSync(file)) return undefined;
  return fs.createReadStream(file);
}

/** Removes a recording wherever it is (retention); a storage that fails is left as it is. */
export async function removeReplay(
  deps: ArchiveDeps,
  row: { replay_path: string; replay_storage_id: string | null },
): Promise<void> {
  if (!row.replay_path) return;
  if (row.replay_storage_id) {
    const storage = await deps.db
      .selectFrom('terminal_replaystorage')
      .selectAll()
      .where('id', '=', row.replay_storage_id)
      .executeTakeFirst();
    if (storage)
      await storeOf(storage, deps.secretBox)
        ?.remove(row.replay_path)
        .catch(() => undefined);
    return;
  }
  const dataDir = path.resolve(deps.dataDir);
  const file = path.resolve(dataDir, row.replay_path);
  // Only files inside DATA_DIR: a row never names a path that leaves it.
  if (file.startsWith(dataDir + path.sep)) await fs.promises.rm(file, { force: true });
}
