import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/**
 * PostgreSQL's frontend/backend protocol v3 (https://www.postgresql.org/docs/current/protocol-message-formats.html):
 * the messages the proxy builds and reads, a reader of whole messages with a size limit, and the
 * upstream login's SCRAM-SHA-256 and md5 answers.
 */
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;
export const PROTOCOL_3 = 196608;

/** A protocol violation by the peer: the message says what. */
export class WireError extends Error {
  constructor(
    message: string,
    readonly tooLarge?: { size: number; max: number },
  ) {
    super(message);
  }
}

export interface PgMessage {
  /** The type byte ('' for the startup phase's untyped messages). */
  type: string;
  body: Buffer;
  /** The whole message as received (type, length, body). */
  raw: Buffer;
}

/** Whole messages from a byte stream: typed (after startup) or untyped (startup, SSL and cancel requests). */
export class MessageReader {
  private buf: Buffer = Buffer.alloc(0);
  typed = false;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
  }

  /** The bytes not read yet (handed on when the reader's job ends). */
  rest(): Buffer {
    const r = this.buf;
    this.buf = Buffer.alloc(0);
    return r;
  }

  /** The next whole message, or undefined until more bytes come; throws on a bad or oversized length. */
  next(): PgMessage | undefined {
    const head = this.typed ? 5 : 4;
    if (this.buf.length < head) return undefined;
    const len = this.buf.readInt32BE(head - 4);
    if (len < 4) throw new WireError(`message length ${len}`);
    if (len > this.max) throw new WireError(`message of ${len} bytes`, { size: len, max: this.max });
    const total = len + (this.typed ? 1 : 0);
    if (this.buf.length < total) return undefined;
    const raw = this.buf.subarray(0, total);
    this.buf = this.buf.subarray(total);
    return { type: this.typed ? String.fromCharCode(raw[0]!) : '', body: raw.subarray(head), raw };
  }
}

export function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.write(type, 0, 'latin1');
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}

export const cstr = (s: string) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** The startup message's parameters (user, database, application_name...). */
export function startupParams(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 4;
  while (i < body.length && body[i] !== 0) {
    const k = body.indexOf(0, i);
    if (k < 0) throw new WireError('unterminated startup parameter');
    const v = body.indexOf(0, k + 1);
    if (v < 0) throw new WireError('unterminated startup parameter');
    out[body.toString('utf8', i, k)] = body.toString('utf8', k + 1, v);
    i = v + 1;
  }
  return out;
}

export function startupMessage(params: Record<string, string>): Buffer {
  const parts = [int32(PROTOCOL_3)];
  for (const [k, v] of Object.entries(params)) parts.push(cstr(k), cstr(v));
  parts.push(Buffer.from([0]));
  const body = Buffer.concat(parts);
  return Buffer.concat([int32(body.length + 4), body]);
}

export function sslRequest(): Buffer {
  return Buffer.concat([int32(8), int32(SSL_REQUEST)]);
}

export function authRequest(code: number, data: Buffer = Buffer.alloc(0)): Buffer {
  return message('R', Buffer.concat([int32(code), data]));
}

/** An ErrorResponse (or, with type 'N', a NoticeResponse). */
export function errorResponse(sqlState: string, text: string, severity = 'ERROR', type = 'E'): Buffer {
  return message(
    type,
    Buffer.concat([
      Buffer.from('S'),
      cstr(severity),
      Buffer.from('V'),
      cstr(severity),
      Buffer.from('C'),
      cstr(sqlState),
      Buffer.from('M'),
      cstr(text),
      Buffer.from([0]),
    ]),
  );
}

export function readyForQuery(status: string): Buffer {
  return message('Z', Buffer.from(status, 'latin1'));
}

/** The fields of an ErrorResponse or NoticeResponse body by their code ('M' message, 'C' SQLSTATE...). */
export function errorFields(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < body.length && body[i] !== 0) {
    const code = String.fromCharCode(body[i]!);
    const z = body.indexOf(0, i + 1);
    if (z < 0) break;
    out[code] = body.toString('utf8', i + 1, z);
    i = z + 1;
  }
  return out;
}

export function passwordMessage(password: string): Buffer {
  return message('p', cstr(password));
}

/** md5 authentication's answer: `md5` + md5(md5(password + user) + salt). */
export function md5Password(user: string, password: string, salt: Buffer): string {
  const inner = createHash('md5')
    .update(password + user)
    .digest('hex');
  return `md5${createHash('md5')
    .update(Buffer.concat([Buffer.from(inner), salt]))
    .digest('hex')}`;
}

/** The client side of SCRAM-SHA-256 (RFC 5802, RFC 7677), without channel binding. */
export class ScramClient {
  private readonly nonce: string;
  private clientFirstBare = '';
  private expectedServerSignature = '';

  constructor(
    private readonly password: string,
    nonce = randomBytes(18).toString('base64'),
    /** PostgreSQL ignores it (the startup message named the user); RFC 7677's example has one. */
    private readonly user = '',
  ) {
    this.nonce = nonce;
  }

  first(): string {
    this.clientFirstBare = `n=${this.user},r=${this.nonce}`;
    return `n,,${this.clientFirstBare}`;
  }

  /** The client-final message for the server-first one; throws when the server's is wrong. */
  final(serverFirst: string): string {
    const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv[0], kv.slice(2)]));
    const { r, s, i } = attrs as Record<string, string | undefined>;
    const iterations = Number(i);
    if (!r || !s || !r.startsWith(this.nonce) || !(iterations > 0 && iterations <= 1_000_000))
      throw new WireError('bad SCRAM server-first message');
    const salted = pbkdf2Sync(this.password.normalize('NFKC'), Buffer.from(s, 'base64'), iterations, 32, 'sha256');
    const clientKey = createHmac('sha256', salted).update('Client Key').digest();
    const storedKey = createHash('sha256').update(clientKey).digest();
    const withoutProof = `c=biws,r=${r}`;
    const authMessage = `${this.clientFirstBare},${serverFirst},${withoutProof}`;
    const signature = createHmac('sha256', storedKey).update(authMessage).digest();
    const proof = Buffer.from(clientKey.map((b, k) => b ^ signature[k]!));
    const serverKey = createHmac('sha256', salted).update('Server Key').digest();
    this.expectedServerSignature = createHmac('sha256', serverKey).update(authMessage).digest('base64');
    return `${withoutProof},p=${proof.toString('base64')}`;
  }

  /** Whether the server-final message proves the server knew the password too. */
  verify(serverFinal: string): boolean {
    return serverFinal.trim() === `v=${this.expectedServerSignature}`;
  }
}

export function saslInitial(mechanism: string, data: string): Buffer {
  const d = Buffer.from(data, 'utf8');
  return message('p', Buffer.concat([cstr(mechanism), int32(d.length), d]));
}

export function saslResponse(data: string): Buffer {
  return message('p', Buffer.from(data, 'utf8'));
}
