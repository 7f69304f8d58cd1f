import type { SFTPWrapper } from 'ssh2';

/**
 * READ and WRITE on an asset's file handle for the native SFTP relay (sftpSubsystem.ts). A client
 * request larger than the asset's own limit (ssh2 reads OpenSSH's `limits@openssh.com`; 32 KiB for
 * other servers) goes out as several requests at once, not one after the other as ssh2 would
 * split it: the asset sees as many requests in flight as the client sent bytes.
 */

/** The asset's largest READ and WRITE as ssh2 learnt them (node_modules/ssh2/lib/protocol/SFTP.js). */
function limitsOf(sftp: SFTPWrapper): { read: number; write: number } {
  const s = sftp as unknown as { _maxReadLen?: number; _maxWriteLen?: number };
  const fallback = 32 * 1024;
  return { read: s._maxReadLen || fallback, write: s._maxWriteLen || fallback };
}

function readOne(sftp: SFTPWrapper, handle: Buffer, buf: Buffer, off: number, len: number, pos: number) {
  return new Promise<number>((resolve, reject) =>
    sftp.read(handle, buf, off, len, pos, (err, n) => (err ? reject(err) : resolve(n))),
  );
}

/**
 * Reads up to `len` bytes at `position` into `buf` at `off`; answers how many bytes came, up to the
 * first short read, as SFTP allows (0 at the end of the file). An error before any byte is thrown.
 */
export async function readInto(
  sftp: SFTPWrapper,
  handle: Buffer,
  buf: Buffer,
  off: number,
  len: number,
  position: number,
): Promise<number> {
  const step = limitsOf(sftp).read;
  const parts: { len: number; n: Promise<number> }[] = [];
  for (let at = 0; at < len; at += step) {
    const n = Math.min(step, len - at);
    parts.push({ len: n, n: readOne(sftp, handle, buf, off + at, n, position + at) });
  }
  const settled = await Promise.allSettled(parts.map((p) => p.n));
  let total = 0;
  for (let i = 0; i < parts.length; i++) {
    const r = settled[i]!;
    if (r.status === 'rejected') {
      if (total === 0) throw r.reason;
      break;
    }
    total += r.value;
    if (r.value < parts[i]!.len) break;
  }
  return total;
}

/** Writes `data` at `position`; the first error is thrown once every part has answered. */
export async function writeAt(sftp: SFTPWrapper, handle: Buffer, data: Buffer, position: number): Promise<void> {
  const step = limitsOf(sftp).write;
  const parts: Promise<void>[] = [];
  for (let off = 0; off < data.length; off += step) {
    const n = Math.min(step, data.length - off);
    parts.push(
      new Promise<void>((resolve, reject) =>
        sftp.write(handle, data, off, n, position + off, (err) => (err ? reject(err) : resolve())),
      ),
    );
  }
  const settled = await Promise.allSettled(parts);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
