import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { outputJson } from './outputJson.ts';

/**
 * The recording of one terminal session as asciicast v2: a header line, then one `[seconds, "o",
 * text]` line per output chunk (and `"i"` for an exec's input, which no terminal echoes), appended to `DATA_DIR/replays/<YYYY-MM-DD>/<id>.cast` while the
 * session runs. Lines are buffered and written every FLUSH_MS (and at 64 KiB), so a process killed
 * with `kill -9` loses at most the last FLUSH_MS of output: what reached write(2) is in the file.
 * `finish()` writes the rest and compresses the file to `.cast.gz`; `closeStream()` does the same
 * for a stream left behind by a crash (at the next start).
 */
export const FLUSH_MS = 250;
const FLUSH_BYTES = 64 * 1024;

export function replayRelPath(sessionId: string, dateStart: Date): string {
  return path.posix.join('replays', dateStart.toISOString().slice(0, 10), `${sessionId}.cast`);
}

export interface CastHeader {
  width: number;
  height: number;
  timestamp: number;
  title?: string;
  env?: Record<string, string>;
  /** `rfb`: a graphical session's recording, whose `d` events are the RFB bytes the browser got (graphical/). */
  kind?: 'rfb';
}

export class Recorder {
  private fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout;
  private readonly started: number;
  private closed = false;

  constructor(
    readonly file: string,
    header: CastHeader,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'a', 0o600);
    this.started = header.timestamp * 1000;
    fs.writeSync(this.fd, `${JSON.stringify({ version: 2, ...header })}\n`);
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Terminal output (what the user saw). */
  output(text: string): void {
    if (text) this.event('o', outputJson(text));
  }

  /** Input the asset does not echo (an exec's stdin), as asciicast's `i` event. */
  input(text: string): void {
    if (text) this.event('i', outputJson(text));
  }

  /** Bytes of a graphical session's server stream, as a `d` event of their base64. */
  data(b: Buffer): void {
    if (b.length) this.event('d', `"${b.toString('base64')}"`);
  }

  /** A resize, as asciicast's `r` event `"<cols>x<rows>"`. */
  resize(cols: number, rows: number): void {
    this.event('r', `"${cols}x${rows}"`);
  }

  /** One event line; `json` is its text as a JSON string literal. */
  private event(kind: string, json: string): void {
    if (this.closed) return;
    const line = `[${Math.max(0, (Date.now() - this.started) / 1000)},"${kind}",${json}]\n`;
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  flush(): void {
    if (!this.pending.length || this.closed) return;
    const chunk = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    fs.writeSync(this.fd, chunk);
  }

  /** Writes the rest, closes and compresses; answers the path of the `.cast.gz`. */
  async finish(): Promise<string> {
    if (this.closed) return `${this.file}.gz`;
    this.flush();
    this.closed = true;
    clearInterval(this.timer);
    fs.closeSync(this.fd);
    return closeStream(this.file);
  }
}

/**
 * Compresses a `.cast` stream to `.cast.gz` and removes it. A crash can leave the last line cut
 * in the middle of a write: a last line without its newline is dropped, so the result is valid.
 */
export async function closeStream(file: string): Promise<string> {
  const gz = `${file}.gz`;
  if (!fs.existsSync(file)) return gz;
  const size = fs.statSync(file).size;
  if (size > 0) {
    const fd = fs.openSync(file, 'r+');
    try {
      const tail = Buffer.alloc(Math.min(size, 64 * 1024));
      fs.readSync(fd, tail, 0, tail.length, size - tail.length);
      if (tail[tail.length - 1] !== 0x0a) {
        const nl = tail.lastIndexOf(0x0a);
        fs.ftruncateSync(fd, nl < 0 ? size - tail.length : size - tail.length + nl + 1);
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  await pipeline(fs.createReadStream(file), createGzip(), fs.createWriteStream(gz, { mode: 0o600 }));
  fs.rmSync(file);
  return gz;
}
