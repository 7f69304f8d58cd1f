import { errorText, MAX_PAYLOAD, readLenenc, SERVER_MORE_RESULTS_EXISTS } from './mysqlWire.ts';

/**
 * The server's side of a proxied MySQL connection, read as it streams to the client: chunks are
 * passed on as they are, while the packets are followed through each command's response (OK,
 * ERR, result sets up to their EOF, more results after a multi-statement query, a prepared
 * statement's description) to see each statement complete, with its row count or error. Rows are
 * counted from their packet headers only.
 */
export type Expect = 'query' | 'prepare' | 'simple' | 'fieldlist' | 'fetch';

export interface MyResponseEvents {
  /** A statement (one result of a query or an execution) completed. */
  completed(outcome: { result?: string; error?: string }): void;
  /** A prepare answered: the statement's id, or its error. */
  prepared(outcome: { id?: number; error?: string }): void;
  /** The response to the oldest command is over. */
  done(): void;
  write(b: Buffer): void;
}

type State = 'first' | 'cols' | 'rows' | 'pparams' | 'pcols' | 'fieldlist' | 'simple';

export class MyResponseScanner {
  private readonly queue: Expect[] = [];
  private state: State | undefined;
  private held: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private continued = false;
  private collect: Buffer[] | undefined;
  private collectState: State | undefined;
  private rows = 0;
  private prepCols = 0;

  constructor(private readonly on: MyResponseEvents) {}

  expect(e: Expect): void {
    this.queue.push(e);
    if (this.queue.length === 1) this.begin();
  }

  get idle(): boolean {
    return this.queue.length === 0;
  }

  get atBoundary(): boolean {
    return this.remaining === 0 && this.held.length === 0 && !this.continued;
  }

  private begin(): void {
    const e = this.queue[0];
    this.state =
      e === undefined
        ? undefined
        : e === 'fieldlist'
          ? 'fieldlist'
          : e === 'simple'
            ? 'simple'
            : e === 'fetch'
              ? 'rows'
              : 'first';
    this.rows = 0;
  }

  private finish(): void {
    this.queue.shift();
    this.on.done();
    this.begin();
  }

  feed(input: Buffer): void {
    let chunk = input;
    if (this.held.length) {
      chunk = Buffer.concat([this.held, input]);
      this.held = Buffer.alloc(0);
    }
    const seg = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - i);
        this.collect?.push(chunk.subarray(i, i + n));
        i += n;
        this.remaining -= n;
        if (this.remaining === 0 && this.collect) this.complete();
        continue;
      }
      if (chunk.length - i < 4) break;
      const len = chunk.readUIntLE(i, 3);
      if (len > 0 && chunk.length - i < 5) break;
      const first = len > 0 ? chunk[i + 4]! : -1;
      const continuation = this.continued;
      this.continued = len === MAX_PAYLOAD;
      i += 4;
      this.remaining = len;
      this.collect = undefined;
      if (!continuation) this.packet(first, len);
      if (this.remaining === 0 && this.collect) this.complete();
    }
    if (i < chunk.length) {
      if (i > seg) this.on.write(chunk.subarray(seg, i));
      this.held = Buffer.from(chunk.subarray(i));
      return;
    }
    if (chunk.length > seg) this.on.write(chunk.subarray(seg));
  }

  /** A packet's start: its first byte and length decide; what must be read whole is collected. */
  private packet(first: number, len: number): void {
    const s = this.state;
    const eof = first === 0xfe && len < 9;
    const take = () => {
      this.collect = [];
      this.collectState = s;
    };
    if (s === undefined) return;
    if (s === 'first') {
      if (first === 0x00 || first === 0xff) return take();
      if (first === 0xfb) {
        this.on.completed({ error: 'LOAD DATA LOCAL is not allowed through the proxy' });
        return this.finish();
      }
      if (this.queue[0] === 'prepare') return take();
      this.state = 'cols';
      return;
    }
    if (s === 'cols') {
      if (first === 0xff) return take();
      if (eof) this.state = 'rows';
      return;
    }
    if (s === 'rows') {
      if (first === 0xff || eof) return take();
      this.rows++;
      return;
    }
    if (s === 'pparams' || s === 'pcols') {
      if (!eof) return;
      if (s === 'pparams' && this.prepCols > 0) this.state = 'pcols';
      else this.finish();
      return;
    }
    if (s === 'fieldlist') {
      if (first === 0xff || eof) this.finish();
      return;
    }
    if (s === 'simple') {
      if (first === 0x00 || first === 0xff) return take();
      this.finish();
    }
  }

  private complete(): void {
    const b = Buffer.concat(this.collect!);
    this.collect = undefined;
    const s = this.collectState;
    if (b[0] === 0xff) {
      const error = errorText(b);
      if (s === 'first' && this.queue[0] === 'prepare') this.on.prepared({ error });
      else this.on.completed({ error });
      return this.finish();
    }
    if (s === 'first' && this.queue[0] === 'prepare') {
      const id = b.readUInt32LE(1);
      this.prepCols = b.readUInt16LE(5);
      const params = b.readUInt16LE(7);
      this.on.prepared({ id });
      if (params > 0) this.state = 'pparams';
      else if (this.prepCols > 0) this.state = 'pcols';
      else this.finish();
      return;
    }
    let status = 0;
    let result: string;
    if (b[0] === 0x00) {
      const affected = readLenenc(b, 1);
      const insertId = readLenenc(b, affected.end);
      status = b.length >= insertId.end + 2 ? b.readUInt16LE(insertId.end) : 0;
      result = `OK, ${affected.value} row${affected.value === 1 ? '' : 's'} affected`;
    } else {
      status = b.length >= 5 ? b.readUInt16LE(3) : 0;
      result = `${this.rows} row${this.rows === 1 ? '' : 's'}`;
    }
    if (s === 'simple') {
      this.on.completed({ result });
      return this.finish();
    }
    this.on.completed({ result });
    if (status & SERVER_MORE_RESULTS_EXISTS) {
      this.state = 'first';
      this.rows = 0;
    } else this.finish();
  }
}
