/**
 * The server's side of a proxied PostgreSQL connection, read as it streams to the client: chunks
 * are passed on as they are (no copy per row: a 100k-row result is a few hundred writes), while the
 * message boundaries are followed to see what completes each statement (CommandComplete,
 * ErrorResponse, EmptyQueryResponse, PortalSuspended) and each cycle (ReadyForQuery). The proxy's
 * own messages (a refusal in the place of a refused statement's answer) are put in before a
 * ReadyForQuery or after one, never inside a message.
 */
export interface ResponseEvents {
  /** A statement completed: its tag (`SELECT 5`, `INSERT 0 1`), or its error (`code` and message). */
  completed(outcome: { result?: string; error?: string; empty?: boolean }): void;
  /** Before the ReadyForQuery that ends a cycle: what to put in front of it (a refusal), if anything. */
  beforeReady(): Buffer | undefined;
  /** After that ReadyForQuery (with the transaction status): what follows it (synthetic answers). */
  afterReady(status: string): Buffer[];
  write(b: Buffer): void;
}

const COLLECT = new Set(['C', 'E', 'Z']);

export class PgResponseScanner {
  private held: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private type = '';
  private collect: Buffer[] | undefined;

  constructor(private readonly on: ResponseEvents) {}

  /** Whether what was passed on ends at a message boundary (a message of the proxy's may follow). */
  get atBoundary(): boolean {
    return this.remaining === 0 && this.held.length === 0;
  }

  feed(input: Buffer): void {
    let chunk = input;
    if (this.held.length) {
      chunk = Buffer.concat([this.held, input]);
      this.held = Buffer.alloc(0);
    }
    let seg = 0;
    let i = 0;
    const flushTo = (end: number) => {
      if (end > seg) this.on.write(chunk.subarray(seg, end));
      seg = end;
    };
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - i);
        this.collect?.push(chunk.subarray(i, i + n));
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) this.complete(() => flushTo(i));
        continue;
      }
      if (chunk.length - i < 5) {
        flushTo(i);
        this.held = Buffer.from(chunk.subarray(i));
        return;
      }
      const type = String.fromCharCode(chunk[i]!);
      const len = chunk.readInt32BE(i + 1);
      if (type === 'Z') {
        const before = this.on.beforeReady();
        if (before) {
          flushTo(i);
          this.on.write(before);
        }
      }
      this.type = type;
      this.remaining = Math.max(0, len - 4);
      this.collect = COLLECT.has(type) ? [] : undefined;
      i += 5;
      if (this.remaining === 0) this.complete(() => flushTo(i));
    }
    flushTo(chunk.length);
  }

  private complete(flush: () => void): void {
    const type = this.type;
    const body = this.collect ? Buffer.concat(this.collect) : Buffer.alloc(0);
    this.collect = undefined;
    if (type === 'C') this.on.completed({ result: body.toString('utf8', 0, Math.max(0, body.length - 1)) });
    else if (type === 'I') this.on.completed({ empty: true });
    else if (type === 's') this.on.completed({ result: 'SUSPENDED' });
    else if (type === 'E') {
      const f = fields(body);
      this.on.completed({ error: `${f.C ?? ''} ${f.M ?? ''}`.trim() });
    } else if (type === 'Z') {
      flush();
      for (const b of this.on.afterReady(body.toString('latin1', 0, 1))) this.on.write(b);
    }
  }
}

function fields(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < body.length && body[i] !== 0) {
    const z = body.indexOf(0, i + 1);
    if (z < 0) break;
    out[String.fromCharCode(body[i]!)] = body.toString('utf8', i + 1, z);
    i = z + 1;
  }
  return out;
}
