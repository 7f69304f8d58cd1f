import { createHash, publicEncrypt, constants, randomBytes } from 'node:crypto';

/**
 * MySQL/MariaDB client/server protocol (https://dev.mysql.com/doc/dev/mysql-server/latest/PAGE_PROTOCOL.html):
 * packets (3-byte length, sequence id, payload; a payload of 0xFFFFFF continues in the next
 * packet), the handshake both ways and the upstream login's auth answers
 * (`mysql_native_password`, `caching_sha2_password` with its RSA exchange, `mysql_clear_password`).
 */
export const CAP = {
  LONG_PASSWORD: 0x1,
  FOUND_ROWS: 0x2,
  LONG_FLAG: 0x4,
  CONNECT_WITH_DB: 0x8,
  LOCAL_FILES: 0x80,
  PROTOCOL_41: 0x200,
  SSL: 0x800,
  TRANSACTIONS: 0x2000,
  SECURE_CONNECTION: 0x8000,
  MULTI_STATEMENTS: 0x10000,
  MULTI_RESULTS: 0x20000,
  PS_MULTI_RESULTS: 0x40000,
  PLUGIN_AUTH: 0x80000,
  CONNECT_ATTRS: 0x100000,
  PLUGIN_AUTH_LENENC: 0x200000,
  DEPRECATE_EOF: 0x1000000,
} as const;

/**
 * What the proxy offers clients: no TLS, no compression, no LOAD DATA LOCAL (a server could ask the
 * client for any of its files, and the data would bypass the statement records), classic EOF
 * packets; all of it understood by every MySQL and MariaDB server, so the upstream login can ask
 * for the same.
 */
export const PROXY_CAPS =
  CAP.LONG_PASSWORD |
  CAP.FOUND_ROWS |
  CAP.LONG_FLAG |
  CAP.CONNECT_WITH_DB |
  CAP.PROTOCOL_41 |
  CAP.TRANSACTIONS |
  CAP.SECURE_CONNECTION |
  CAP.MULTI_STATEMENTS |
  CAP.MULTI_RESULTS |
  CAP.PS_MULTI_RESULTS |
  CAP.PLUGIN_AUTH |
  CAP.CONNECT_ATTRS |
  CAP.PLUGIN_AUTH_LENENC;

export const MAX_PAYLOAD = 0xffffff;
export const SERVER_MORE_RESULTS_EXISTS = 0x0008;

export const COM = {
  QUIT: 0x01,
  INIT_DB: 0x02,
  QUERY: 0x03,
  FIELD_LIST: 0x04,
  STATISTICS: 0x09,
  PING: 0x0e,
  CHANGE_USER: 0x11,
  STMT_PREPARE: 0x16,
  STMT_EXECUTE: 0x17,
  STMT_SEND_LONG_DATA: 0x18,
  STMT_CLOSE: 0x19,
  STMT_RESET: 0x1a,
  SET_OPTION: 0x1b,
  STMT_FETCH: 0x1c,
  RESET_CONNECTION: 0x1f,
} as const;

export class MyWireError extends Error {
  constructor(
    message: string,
    readonly tooLarge?: { size: number; max: number },
  ) {
    super(message);
  }
}

export interface Packet {
  seq: number;
  /** The payload, continuation packets joined. */
  payload: Buffer;
  /** The packets as received. */
  raw: Buffer;
}

/** Whole logical packets (continuations joined), at most `max` bytes of payload. */
export class PacketReader {
  private buf: Buffer = Buffer.alloc(0);

  constructor(public max: number) {}

  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
  }

  rest(): Buffer {
    const r = this.buf;
    this.buf = Buffer.alloc(0);
    return r;
  }

  next(): Packet | undefined {
    let at = 0;
    let size = 0;
    const parts: Buffer[] = [];
    let seq = 0;
    for (;;) {
      if (this.buf.length < at + 4) {
        // Even unfinished, a logical packet already over the limit is refused now (not buffered).
        if (size > this.max) throw new MyWireError(`packet of over ${size} bytes`, { size, max: this.max });
        return undefined;
      }
      const len = this.buf.readUIntLE(at, 3);
      seq = this.buf[at + 3]!;
      size += len;
      if (size > this.max) throw new MyWireError(`packet of over ${size} bytes`, { size, max: this.max });
      if (this.buf.length < at + 4 + len) return undefined;
      parts.push(this.buf.subarray(at + 4, at + 4 + len));
      at += 4 + len;
      if (len < MAX_PAYLOAD) break;
    }
    const raw = this.buf.subarray(0, at);
    this.buf = this.buf.subarray(at);
    return { seq, payload: parts.length === 1 ? parts[0]! : Buffer.concat(parts), raw };
  }
}

/** A payload as packets with sequence ids from `seq`. */
export function packet(seq: number, payload: Buffer): Buffer {
  const out: Buffer[] = [];
  let off = 0;
  let s = seq;
  for (;;) {
    const len = Math.min(MAX_PAYLOAD, payload.length - off);
    const head = Buffer.alloc(4);
    head.writeUIntLE(len, 0, 3);
    head[3] = s & 0xff;
    out.push(head, payload.subarray(off, off + len));
    off += len;
    s++;
    if (len < MAX_PAYLOAD) break;
  }
  return Buffer.concat(out);
}

export function errPacket(seq: number, errno: number, sqlState: string, message: string): Buffer {
  const head = Buffer.alloc(3);
  head[0] = 0xff;
  head.writeUInt16LE(errno, 1);
  return packet(seq, Buffer.concat([head, Buffer.from(`#${sqlState}`, 'latin1'), Buffer.from(message, 'utf8')]));
}

export function okPacket(seq: number, status = 0x0002): Buffer {
  const b = Buffer.from([0x00, 0x00, 0x00, 0, 0, 0, 0]);
  b.writeUInt16LE(status, 3);
  return packet(seq, b);
}

export function readLenenc(b: Buffer, at: number): { value: number; end: number } {
  const first = b[at];
  if (first === undefined) throw new MyWireError('truncated length');
  if (first < 0xfb) return { value: first, end: at + 1 };
  if (first === 0xfc) return { value: b.readUInt16LE(at + 1), end: at + 3 };
  if (first === 0xfd) return { value: b.readUIntLE(at + 1, 3), end: at + 4 };
  if (first === 0xfe) return { value: Number(b.readBigUInt64LE(at + 1)), end: at + 9 };
  throw new MyWireError('bad length');
}

export function lenenc(n: number): Buffer {
  if (n < 0xfb) return Buffer.from([n]);
  if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = 0xfc;
    b.writeUInt16LE(n, 1);
    return b;
  }
  const b = Buffer.alloc(4);
  b[0] = 0xfd;
  b.writeUIntLE(n, 1, 3);
  return b;
}

function cstring(b: Buffer, at: number): { value: string; end: number } {
  const z = b.indexOf(0, at);
  if (z < 0) throw new MyWireError('unterminated string');
  return { value: b.toString('utf8', at, z), end: z + 1 };
}

const cstr = (s: string) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);

/** The proxy's greeting to a client: its own scramble, asking for the password in clear. */
export function handshakeV10(
  connectionId: number,
  scramble: Buffer,
  tls = false,
  plugin = 'mysql_clear_password',
): Buffer {
  const caps = PROXY_CAPS | (tls ? CAP.SSL : 0);
  const fixed = Buffer.alloc(1 + 4);
  const parts: Buffer[] = [Buffer.from([10]), cstr('5.7.99-Gatehouse')];
  fixed.writeUInt32LE(connectionId, 0);
  parts.push(fixed.subarray(0, 4), scramble.subarray(0, 8), Buffer.from([0]));
  const mid = Buffer.alloc(2 + 1 + 2 + 2 + 1 + 10);
  mid.writeUInt16LE(caps & 0xffff, 0);
  mid[2] = 45; // utf8mb4_general_ci
  mid.writeUInt16LE(0x0002, 3);
  mid.writeUInt16LE((caps >>> 16) & 0xffff, 5);
  mid[7] = 21;
  parts.push(mid, scramble.subarray(8, 20), Buffer.from([0]), cstr(plugin));
  return Buffer.concat(parts);
}

export interface HandshakeResponse {
  caps: number;
  maxPacket: number;
  charset: number;
  user: string;
  auth: Buffer;
  database: string;
  plugin: string;
  /** The client asked for TLS (an SSLRequest: the short response). */
  ssl: boolean;
}

export function parseHandshakeResponse(p: Buffer): HandshakeResponse {
  // An SSLRequest is the response's first 32 bytes alone (TLS follows, then the whole response).
  if (p.length <= 32) {
    if (p.length >= 4 && p.readUInt32LE(0) & CAP.SSL)
      return {
        caps: p.readUInt32LE(0),
        maxPacket: 0,
        charset: 0,
        user: '',
        auth: Buffer.alloc(0),
        database: '',
        plugin: '',
        ssl: true,
      };
    throw new MyWireError('short handshake response');
  }
  const caps = p.readUInt32LE(0);
  if (!(caps & CAP.PROTOCOL_41)) throw new MyWireError('the client does not speak protocol 4.1');
  const maxPacket = p.readUInt32LE(4);
  const charset = p[8]!;
  let at = 32;
  const user = cstring(p, at);
  at = user.end;
  let auth: Buffer;
  if (caps & CAP.PLUGIN_AUTH_LENENC) {
    const l = readLenenc(p, at);
    auth = p.subarray(l.end, l.end + l.value);
    at = l.end + l.value;
  } else if (caps & CAP.SECURE_CONNECTION) {
    const l = p[at] ?? 0;
    auth = p.subarray(at + 1, at + 1 + l);
    at += 1 + l;
  } else {
    const a = cstring(p, at);
    auth = Buffer.from(a.value);
    at = a.end;
  }
  let database = '';
  if (caps & CAP.CONNECT_WITH_DB && at < p.length) {
    const d = cstring(p, at);
    database = d.value;
    at = d.end;
  }
  let plugin = '';
  if (caps & CAP.PLUGIN_AUTH && at < p.length) plugin = cstring(p, at).value;
  return { caps, maxPacket, charset, user: user.value, auth, database, plugin, ssl: false };
}

export interface ServerGreeting {
  version: string;
  caps: number;
  charset: number;
  scramble: Buffer;
  plugin: string;
}

export function parseHandshakeV10(p: Buffer): ServerGreeting {
  if (p[0] === 0xff) throw new MyWireError(errorText(p));
  if (p[0] !== 10) throw new MyWireError(`unsupported server protocol ${p[0]}`);
  const version = cstring(p, 1);
  let at = version.end + 4;
  const part1 = p.subarray(at, at + 8);
  at += 9;
  let caps = p.readUInt16LE(at);
  const charset = p[at + 2]!;
  caps |= p.readUInt16LE(at + 5) << 16;
  const authLen = p[at + 7]!;
  at += 18;
  const len2 = Math.max(13, authLen - 8);
  const part2 = p.subarray(at, at + len2 - 1);
  at += len2;
  const plugin = caps & CAP.PLUGIN_AUTH && at < p.length ? cstring(p, at).value : 'mysql_native_password';
  return {
    version: version.value,
    caps: caps >>> 0,
    charset,
    scramble: Buffer.concat([part1, part2]).subarray(0, 20),
    plugin,
  };
}

/** An ERR packet's payload as `errno (sqlstate): message`. */
export function errorText(p: Buffer): string {
  if (p[0] !== 0xff || p.length < 3) return 'error';
  const errno = p.readUInt16LE(1);
  const hasState = p[3] === 0x23;
  const message = p.toString('utf8', hasState ? 9 : 3);
  return `${errno}${hasState ? ` (${p.toString('latin1', 4, 9)})` : ''}: ${message}`;
}

const sha1 = (...b: Buffer[]) => b.reduce((h, x) => h.update(x), createHash('sha1')).digest();
const sha256 = (...b: Buffer[]) => b.reduce((h, x) => h.update(x), createHash('sha256')).digest();
const xor = (a: Buffer, b: Buffer) => Buffer.from(a.map((v, i) => v ^ b[i % b.length]!));

export function nativePassword(password: string, scramble: Buffer): Buffer {
  if (!password) return Buffer.alloc(0);
  const p1 = sha1(Buffer.from(password, 'utf8'));
  return xor(p1, sha1(scramble.subarray(0, 20), sha1(p1)));
}

export function cachingSha2Password(password: string, scramble: Buffer): Buffer {
  if (!password) return Buffer.alloc(0);
  const p1 = sha256(Buffer.from(password, 'utf8'));
  return xor(p1, sha256(sha256(p1), scramble.subarray(0, 20)));
}

/** caching_sha2_password's full authentication without TLS: the password under the server's RSA key. */
export function rsaPassword(password: string, scramble: Buffer, publicKeyPem: string): Buffer {
  const plain = xor(cstr(password), scramble.subarray(0, 20));
  return publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING }, plain);
}

export function newScramble(): Buffer {
  // Printable, non-NUL bytes, as servers send.
  return Buffer.from(randomBytes(20).map((b) => 0x21 + (b % 94)));
}

export function handshakeResponse(r: {
  caps: number;
  charset: number;
  user: string;
  auth: Buffer;
  database: string;
  plugin: string;
}): Buffer {
  const head = Buffer.alloc(32);
  head.writeUInt32LE(r.caps >>> 0, 0);
  head.writeUInt32LE(MAX_PAYLOAD + 1, 4);
  head[8] = r.charset;
  const parts: Buffer[] = [head, cstr(r.user)];
  if (r.caps & CAP.PLUGIN_AUTH_LENENC) parts.push(lenenc(r.auth.length), r.auth);
  else parts.push(Buffer.from([r.auth.length]), r.auth);
  if (r.caps & CAP.CONNECT_WITH_DB) parts.push(cstr(r.database));
  if (r.caps & CAP.PLUGIN_AUTH) parts.push(cstr(r.plugin));
  return Buffer.concat(parts);
}
