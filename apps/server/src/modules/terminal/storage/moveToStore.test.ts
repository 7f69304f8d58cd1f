import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { ObjectStore } from './objectStores.ts';
import { moveToStore } from './replayStorages.ts';
import { partKey } from './replayStream.ts';

/**
 * A finished recording that streamed parts while it ran: the parts go once the whole recording is
 * in one place, whether the final upload worked or failed (then the local file is the recording).
 * The store is an in-memory one whose `put` can be made to fail, as a store does when it refuses.
 */
function memoryStore(putFails: boolean) {
  const objects = new Map<string, Buffer>();
  const store: ObjectStore = {
    put: async (key, file) => {
      if (putFails) throw new Error('the store refused the upload');
      objects.set(key, fs.readFileSync(file));
    },
    putBytes: async (key, body) => void objects.set(key, body),
    list: async (prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)).sort(),
    get: async (key) => Readable.from([objects.get(key)!]),
    remove: async (key) => void objects.delete(key),
    test: async () => undefined,
  };
  return { store, objects };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function finished(putFails: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-move-'));
  dirs.push(dir);
  const gz = path.join(dir, 's1.cast.gz');
  fs.writeFileSync(gz, 'recording');
  const { store, objects } = memoryStore(putFails);
  const parts = [partKey('2026/s1.cast', 1), partKey('2026/s1.cast', 2)];
  for (const p of parts) await store.putBytes(p, Buffer.from('part'));
  const errors: string[] = [];
  const moved = await moveToStore(store, '2026/s1.cast.gz', gz, parts, (e) => errors.push(e));
  return { moved, objects, gz, errors };
}

describe('moving a finished, streamed recording to its store', () => {
  it('puts it there, removes the local file and the parts', async () => {
    const { moved, objects, gz, errors } = await finished(false);
    expect(moved).toBe(true);
    expect([...objects.keys()]).toEqual(['2026/s1.cast.gz']);
    expect(fs.existsSync(gz)).toBe(false);
    expect(errors).toEqual([]);
  });

  it('keeps the local file when the upload fails, says why, and leaves no parts in the store', async () => {
    const { moved, objects, gz, errors } = await finished(true);
    expect(moved).toBe(false);
    expect(fs.readFileSync(gz, 'utf8')).toBe('recording');
    expect([...objects.keys()]).toEqual([]);
    expect(errors).toEqual(['the store refused the upload']);
  });
});
