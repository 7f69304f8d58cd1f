import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip, gzip } from 'node:zlib';
import type { ObjectStore } from './objectStores.ts';

/**
 * A running session's recording streamed to an object store (docs/deploy.md): every
 * `REPLAY_STREAM_MS` the complete lines written to the local `.cast` since the last time go up as
 * one gzip part, `<replay_path>.parts/<8-digit sequence>.gz`. When the session ends the whole
 * `.cast.gz` is uploaded as before and the parts are removed; when its instance dies, another joins
 * the parts into the `.cast.gz` (`joinParts`), so what is lost is at most the last interval.
 */
const gzipAsync = promisify(gzip);

/** At most this much of the file goes up in one part (a store that was down comes back in steps). */
const PART_BYTES = 8 * 1024 * 1024;

export function partsPrefix(rel: string): string {
  return `${rel}.parts/`;
}

export function partKey(rel: string, seq: number): string {
  return `${partsPrefix(rel)}${String(seq).padStart(8, '0')}.gz`;
}

/** What the streamer reads: the recorder's file, and its buffered lines written out. */
export interface StreamSource {
  readonly file: string;
  flush(): void;
}

export class ReplayStreamer {
  private offset = 0;
  private seq = 0;
  private busy?: Promise<void>;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;
  private failed = false;

  constructor(
    private readonly store: ObjectStore,
    /** The storage the parts go to (`terminal_session.replay_storage_id` while the session runs). */
    readonly storageId: string,
    private readonly rel: string,
    private readonly source: StreamSource,
    everyMs: number,
    private readonly log?: { info: (fields: Record<string, unknown>, message: string) => void },
  ) {
    this.timer = setInterval(() => this.tick(), everyMs);
    this.timer.unref();
  }

  /** The parts uploaded so far. */
  get parts(): string[] {
    return Array.from({ length: this.seq }, (_, i) => partKey(this.rel, i + 1));
  }

  private tick(): void {
    if (this.busy || this.stopped) return;
    this.busy = this.upload().finally(() => (this.busy = undefined));
  }

  private async upload(): Promise<void> {
    try {
      this.source.flush();
      const fh = await fs.promises.open(this.source.file, 'r');
      let chunk: Buffer;
      try {
        const size = (await fh.stat()).size;
        const want = Math.min(size - this.offset, PART_BYTES);
        if (want <= 0) return;
        chunk = Buffer.alloc(want);
        const { bytesRead } = await fh.read(chunk, 0, want, this.offset);
        chunk = chunk.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
      // Complete lines only: a part always ends where an event does.
      const end = chunk.lastIndexOf(0x0a) + 1;
      if (end <= 0) return;
      const body = await gzipAsync(chunk.subarray(0, end));
      await this.store.putBytes(partKey(this.rel, this.seq + 1), body);
      this.seq++;
      this.offset += end;
      this.failed = false;
    } catch (e) {
      // Tried again at the next tick with what has come since; said once per outage.
      if (!this.failed) this.log?.info({ err: (e as Error).message, replay: this.rel }, 'replay part upload failed');
      this.failed = true;
    }
  }

  /** No more parts: the timer stops and an upload under way is waited for. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.busy;
  }
}

/** Removes parts; one that cannot be removed is left (retention has no list of them). */
export async function removeParts(store: ObjectStore, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 16)
    await Promise.all(keys.slice(i, i + 16).map((k) => store.remove(k).catch(() => undefined)));
}

/**
 * Joins the parts a session streamed into its `.cast.gz` in the same store (one gzip member, as a
 * finished recording is) and removes them; answers the key of the recording, or undefined when no
 * part was streamed.
 */
export async function joinParts(store: ObjectStore, rel: string): Promise<string | undefined> {
  const keys = (await store.list(partsPrefix(rel))).filter((k) => k.endsWith('.gz')).sort();
  if (!keys.length) return undefined;
  const tmp = path.join(os.tmpdir(), `gatehouse-join-${randomUUID()}.cast.gz`);
  try {
    const zip = createGzip();
    const out = pipeline(zip, fs.createWriteStream(tmp, { mode: 0o600 }));
    for (const k of keys) {
      const unzip = createGunzip();
      const feeding = pipeline(await store.get(k), unzip);
      for await (const b of unzip) if (!zip.write(b)) await once(zip, 'drain');
      await feeding;
    }
    zip.end();
    await out;
    const key = `${rel}.gz`;
    await store.put(key, tmp);
    await removeParts(store, keys);
    return key;
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}
