import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Client, type SFTPWrapper } from 'ssh2';
import type { ObjectStore } from './objectStores.ts';

/**
 * A replay storage of type `sftp` (contract `REPLAY_STORAGE_META.sftp`): objects are files under
 * `STA_SFTP_ROOT_PATH` on an SFTP server, signed in by password. Each call opens its own
 * connection (recordings and backups are rare and large; no pool to keep alive). The server's
 * host key is not pinned: what is written here is a recording or an encrypted backup.
 */
const TIMEOUT_MS = 10_000;

async function withSftp<T>(meta: Record<string, string>, work: (sftp: SFTPWrapper) => Promise<T>): Promise<T> {
  const client = new Client();
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('error', reject);
      client.connect({
        host: meta.SFTP_HOST,
        port: Number(meta.SFTP_PORT) || 22,
        username: meta.STA_SFTP_USERNAME,
        password: meta.STA_SFTP_PASSWORD,
        readyTimeout: TIMEOUT_MS,
      });
    });
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
      client.sftp((err, s) => (err ? reject(err) : resolve(s))),
    );
    return await work(sftp);
  } finally {
    client.end();
  }
}

const call = <T>(fn: (cb: (err: Error | null | undefined, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v as T))));

/** `mkdir -p` over SFTP: each missing folder of `dir` is made in turn. */
async function mkdirs(sftp: SFTPWrapper, dir: string): Promise<void> {
  const parts = dir.split('/').filter(Boolean);
  let at = dir.startsWith('/') ? '' : '.';
  for (const p of parts) {
    at = `${at}/${p}`;
    const exists = await call<unknown>((cb) => sftp.stat(at, cb)).then(
      () => true,
      () => false,
    );
    if (!exists) await call<void>((cb) => sftp.mkdir(at, cb));
  }
}

/** Object keys are relative paths; `..` and absolute paths are refused. */
function remotePath(meta: Record<string, string>, key: string): string {
  if (key.split('/').some((p) => p === '..' || p === '') || key.startsWith('/')) throw new Error(`bad key ${key}`);
  return path.posix.join(meta.STA_SFTP_ROOT_PATH || '/tmp', key);
}

export function sftpStore(meta: Record<string, string>): ObjectStore {
  return {
    put: (key, file) =>
      withSftp(meta, async (sftp) => {
        const to = remotePath(meta, key);
        await mkdirs(sftp, path.posix.dirname(to));
        await new Promise<void>((resolve, reject) => {
          const out = sftp.createWriteStream(to, { mode: 0o600 });
          out.once('close', () => resolve());
          out.once('error', reject);
          const input = fs.createReadStream(file);
          input.once('error', reject);
          input.pipe(out);
        });
      }),
    putBytes: (key, body) =>
      withSftp(meta, async (sftp) => {
        const to = remotePath(meta, key);
        await mkdirs(sftp, path.posix.dirname(to));
        await call<void>((cb) => sftp.writeFile(to, body, { mode: 0o600 }, cb));
      }),
    // One folder deep, as the store's keys are laid out (a recording's parts: storage/replayStream.ts).
    list: (prefix) =>
      withSftp(meta, async (sftp) => {
        const folder = prefix.endsWith('/')
          ? prefix
          : prefix.includes('/')
            ? prefix.slice(0, prefix.lastIndexOf('/') + 1)
            : '';
        const dir = folder ? remotePath(meta, folder.slice(0, -1)) : meta.STA_SFTP_ROOT_PATH || '/tmp';
        const entries = await call<{ filename: string }[]>((cb) => sftp.readdir(dir, cb)).catch(() => []);
        return entries
          .map((e) => folder + e.filename)
          .filter((k) => k.startsWith(prefix))
          .sort();
      }),
    get: (key) =>
      withSftp(meta, async (sftp) => {
        const from = remotePath(meta, key);
        try {
          const data = await call<Buffer>((cb) => sftp.readFile(from, cb));
          const { Readable: R } = await import('node:stream');
          return R.from([data]) as Readable;
        } catch (e) {
          if ((e as { code?: number }).code === 2) throw Object.assign(new Error('not found'), { code: 'NotFound' });
          throw e;
        }
      }),
    remove: (key) => withSftp(meta, (sftp) => call<void>((cb) => sftp.unlink(remotePath(meta, key), cb))),
    test: () =>
      withSftp(meta, async (sftp) => {
        await call<unknown>((cb) => sftp.stat(meta.STA_SFTP_ROOT_PATH || '/tmp', cb));
      }),
  };
}
