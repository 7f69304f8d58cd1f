import { describe, expect, it } from 'vitest';
import type { SFTPWrapper } from 'ssh2';
import { readInto, writeAt } from './assetIo.ts';

/**
 * A stand-in for ssh2's SFTP client on an asset with 1,000-byte READ and WRITE limits (the fields
 * ssh2 fills from `limits@openssh.com`), its file a Buffer; it answers requests only when told,
 * so the test sees how many are in flight at once.
 */
function asset(file: Buffer, fail?: (pos: number) => boolean) {
  const pending: (() => void)[] = [];
  let most = 0;
  const sftp = {
    _maxReadLen: 1000,
    _maxWriteLen: 1000,
    read(_h: Buffer, buf: Buffer, off: number, len: number, pos: number, cb: (e: Error | null, n: number) => void) {
      pending.push(() => {
        if (fail?.(pos)) return cb(new Error('asset failure'), 0);
        cb(null, pos >= file.length ? 0 : file.copy(buf, off, pos, Math.min(pos + len, file.length)));
      });
      most = Math.max(most, pending.length);
    },
    write(_h: Buffer, data: Buffer, off: number, len: number, pos: number, cb: (e?: Error | null) => void) {
      pending.push(() => (fail?.(pos) ? cb(new Error('asset failure')) : (data.copy(file, pos, off, off + len), cb())));
      most = Math.max(most, pending.length);
    },
  };
  const answer = async () => {
    while (!pending.length) await new Promise((r) => setImmediate(r));
    for (const p of pending.splice(0)) p();
  };
  return { sftp: sftp as unknown as SFTPWrapper, answer, most: () => most };
}

describe('reads and writes on an asset beyond its request limit', () => {
  const file = Buffer.from(Array.from({ length: 3500 }, (_, i) => i % 251));
  const h = Buffer.from([0, 0, 0, 1]);

  it('sends every part of a long READ at once and answers the bytes in order', async () => {
    const a = asset(file);
    const buf = Buffer.alloc(10 + 3000);
    const n = readInto(a.sftp, h, buf, 10, 3000, 200);
    await a.answer();
    expect(await n).toBe(3000);
    expect(a.most()).toBe(3);
    expect(buf.subarray(10).equals(file.subarray(200, 3200))).toBe(true);
  });

  it('stops at the end of the file, and at the first failing part after some bytes', async () => {
    const a = asset(file);
    const buf = Buffer.alloc(4000);
    const n = readInto(a.sftp, h, buf, 0, 4000, 1000);
    await a.answer();
    expect(await n).toBe(2500);
    const b = asset(file, (pos) => pos >= 2000);
    const m = readInto(b.sftp, h, Buffer.alloc(3000), 0, 3000, 0);
    await b.answer();
    expect(await m).toBe(2000);
    const c = asset(file, (pos) => pos === 0);
    const first = readInto(c.sftp, h, Buffer.alloc(3000), 0, 3000, 0);
    await c.answer();
    await expect(first).rejects.toThrow('asset failure');
  });

  it('sends every part of a long WRITE at once; a failing part fails the WRITE', async () => {
    const target = Buffer.alloc(3500);
    const a = asset(target);
    const w = writeAt(a.sftp, h, file.subarray(0, 2500), 1000);
    await a.answer();
    await w;
    expect(a.most()).toBe(3);
    expect(target.subarray(1000).equals(file.subarray(0, 2500))).toBe(true);
    const b = asset(Buffer.alloc(3500), (pos) => pos === 2000);
    const bad = writeAt(b.sftp, h, file.subarray(0, 2500), 0);
    await b.answer();
    await expect(bad).rejects.toThrow('asset failure');
  });
});
