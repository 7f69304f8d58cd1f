import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ftpFilePath } from '../../audits/ftpFiles.ts';

/**
 * The copy of a transferred file kept with its ftp-log row (`has_file`), at `ftpFilePath`
 * (`modules/audits/ftpFiles.ts`). Chunks are written where they
 * belong in the file as they pass (no file is held in memory); once the file grows past the limit
 * (setting FTP_FILE_MAX_STORE, in MB; 0 keeps nothing) the copy is dropped.
 */

export class FileKeeper {
  /** The id of the ftp-log row the copy belongs to. */
  readonly logId = randomUUID();
  private fd?: Promise<fs.promises.FileHandle>;
  private pending: Promise<unknown> = Promise.resolve();
  private dropped: boolean;
  private size = 0;

  constructor(
    private readonly dataDir: string,
    private readonly limit: number,
  ) {
    this.dropped = limit <= 0;
  }

  private get file(): string {
    return ftpFilePath(this.dataDir, this.logId);
  }

  add(position: number, data: Buffer): void {
    if (this.dropped) return;
    if (position + data.length > this.limit) return this.drop();
    this.size = Math.max(this.size, position + data.length);
    this.fd ??= fs.promises
      .mkdir(path.dirname(this.file), { recursive: true })
      .then(() => fs.promises.open(this.file, 'w', 0o600));
    const copy = Buffer.from(data);
    const fd = this.fd;
    this.pending = this.pending
      .then(() => fd.then((h) => h.write(copy, 0, copy.length, position)))
      .catch(() => this.drop());
  }

  private drop(): void {
    this.dropped = true;
  }

  /** Closes the copy; answers whether it is kept (an empty transfer keeps nothing). */
  async finish(): Promise<boolean> {
    await this.pending;
    const h = await this.fd?.catch(() => undefined);
    await h?.close().catch(() => undefined);
    const keep = !this.dropped && h !== undefined && this.size > 0;
    if (!keep && h) await fs.promises.rm(this.file, { force: true });
    return keep;
  }
}
