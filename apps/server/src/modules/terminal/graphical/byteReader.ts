import type { Duplex } from 'node:stream';

/**
 * Reads exact byte counts from a stream during a handshake (RFB's version, security and init
 * messages), then hands back what came after them so the relay starts with nothing lost.
 * `read(n)` rejects when the stream ends first or `timeoutMs` passes without the bytes.
 */
export class ByteReader {
  private buf = Buffer.alloc(0);
  private want?: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };
  private ended?: Error;
  private readonly onData = (b: Buffer) => {
    this.buf = Buffer.concat([this.buf, b]);
    this.serve();
  };
  private readonly onEnd = () => this.fail(new Error('the connection closed during the handshake'));
  private readonly onError = (e: Error) => this.fail(e);

  constructor(
    private readonly stream: Duplex,
    private readonly timeoutMs = 10_000,
  ) {
    stream.on('data', this.onData);
    stream.once('end', this.onEnd);
    stream.once('close', this.onEnd);
    stream.once('error', this.onError);
  }

  read(n: number): Promise<Buffer> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error('the handshake timed out')), this.timeoutMs);
      this.want = { n, resolve, reject, timer };
      this.serve();
    });
  }

  async u8(): Promise<number> {
    return (await this.read(1))[0]!;
  }

  async u32(): Promise<number> {
    return (await this.read(4)).readUInt32BE(0);
  }

  /** A u32-length-prefixed string (a refusal's reason), at most 64 KiB read. */
  async reason(): Promise<string> {
    const n = await this.u32();
    return (await this.read(Math.min(n, 65536))).toString('utf8');
  }

  /** Stops reading; answers the bytes already received beyond what was read. */
  detach(): Buffer {
    this.stream.off('data', this.onData);
    this.stream.off('end', this.onEnd);
    this.stream.off('close', this.onEnd);
    this.stream.off('error', this.onError);
    const rest = this.buf;
    this.buf = Buffer.alloc(0);
    return rest;
  }

  private serve(): void {
    const w = this.want;
    if (!w || this.buf.length < w.n) return;
    this.want = undefined;
    clearTimeout(w.timer);
    const out = this.buf.subarray(0, w.n);
    this.buf = this.buf.subarray(w.n);
    w.resolve(out);
  }

  private fail(e: Error): void {
    this.ended ??= e;
    const w = this.want;
    this.want = undefined;
    if (w) {
      clearTimeout(w.timer);
      w.reject(e);
    }
  }
}
