import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { openDbLink, type DbLink, type DbTarget } from './dbTarget.ts';
import { UpstreamRefused } from './pgUpstream.ts';
import {
  CAP,
  cachingSha2Password,
  errorText,
  handshakeResponse,
  nativePassword,
  packet,
  PacketReader,
  parseHandshakeV10,
  PROXY_CAPS,
  rsaPassword,
  type Packet,
} from './mysqlWire.ts';

/**
 * The proxy's own login to a MySQL or MariaDB server with the account's secret: the server's
 * greeting read, TLS when the asset says `use_ssl`, then the answer for the server's auth plugin
 * (`mysql_native_password`, `caching_sha2_password` — fast path, or the full one with the
 * password in TLS or under the server's RSA key —, `mysql_clear_password` only inside TLS), auth
 * switches followed. The capabilities asked are the client's within what the proxy offers.
 */
export interface MyUpstream {
  link: DbLink;
  sock: Duplex;
  rest: Buffer;
}

class Packets {
  private readonly reader = new PacketReader(1 << 24);
  private waiting?: { resolve: (p: Packet) => void; reject: (e: Error) => void };
  private failed?: Error;

  constructor(private sock: Duplex) {
    this.attach(sock);
  }

  private readonly onData = (b: Buffer) => {
    this.reader.push(b);
    this.wake();
  };
  private readonly onEnd = () => {
    this.failed = new Error('the server closed the connection');
    this.wake();
  };
  private readonly onError = (e: Error) => {
    this.failed = e;
    this.wake();
  };

  attach(sock: Duplex): void {
    this.sock = sock;
    sock.on('data', this.onData);
    sock.on('close', this.onEnd);
    sock.on('error', this.onError);
  }

  detach(): Buffer {
    this.sock.off('data', this.onData);
    this.sock.off('close', this.onEnd);
    this.sock.off('error', this.onError);
    return this.reader.rest();
  }

  private wake(): void {
    const w = this.waiting;
    if (!w) return;
    try {
      const p = this.reader.next();
      if (p) {
        this.waiting = undefined;
        return w.resolve(p);
      }
    } catch (e) {
      this.waiting = undefined;
      return w.reject(e as Error);
    }
    if (this.failed) {
      this.waiting = undefined;
      w.reject(this.failed);
    }
  }

  next(): Promise<Packet> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.wake();
    });
  }
}

export async function connectMysql(
  db: Kysely<DB>,
  lang: Language,
  t: DbTarget,
  client: { caps: number; charset: number; database: string },
  tlsOpts: { ca?: string; insecure: boolean },
): Promise<MyUpstream> {
  const link = await openDbLink(db, lang, t);
  let sock: Duplex = link.sock;
  const packets = new Packets(sock);
  try {
    const greeting = parseHandshakeV10((await packets.next()).payload);
    let caps = (client.caps & PROXY_CAPS & greeting.caps) | CAP.PROTOCOL_41 | CAP.SECURE_CONNECTION;
    caps &= ~CAP.CONNECT_ATTRS;
    const database = client.database || t.database;
    if (database) caps |= CAP.CONNECT_WITH_DB;
    else caps &= ~CAP.CONNECT_WITH_DB;
    let seq = 1;
    let secure = false;
    if (t.useSsl) {
      if (!(greeting.caps & CAP.SSL))
        throw new UpstreamRefused('the server does not offer TLS (use_ssl is set on the asset)');
      caps |= CAP.SSL;
      const req = Buffer.alloc(32);
      req.writeUInt32LE(caps >>> 0, 0);
      req.writeUInt32LE(0x1000000, 4);
      req[8] = client.charset || greeting.charset;
      sock.write(packet(seq++, req));
      packets.detach();
      const s = tls.connect({
        socket: sock,
        servername: t.host,
        rejectUnauthorized: !tlsOpts.insecure,
        ...(tlsOpts.ca ? { ca: tlsOpts.ca } : {}),
      });
      await new Promise<void>((resolve, reject) => {
        s.once('secureConnect', () => resolve());
        s.once('error', reject);
      });
      sock = s;
      packets.attach(s);
      secure = true;
    }
    let plugin = greeting.plugin;
    let scramble = greeting.scramble;
    const answer = (): Buffer => {
      if (plugin === 'mysql_native_password') return nativePassword(t.password, scramble);
      if (plugin === 'caching_sha2_password') return cachingSha2Password(t.password, scramble);
      if (plugin === 'mysql_clear_password' && secure) return Buffer.from(`${t.password}\0`);
      throw new UpstreamRefused(`unsupported authentication plugin ${plugin}`);
    };
    sock.write(
      packet(
        seq++,
        handshakeResponse({
          caps,
          charset: client.charset || greeting.charset,
          user: t.username,
          auth: answer(),
          database,
          plugin,
        }),
      ),
    );
    for (;;) {
      const p = await packets.next();
      seq = p.seq + 1;
      const b = p.payload;
      if (b[0] === 0x00) break;
      if (b[0] === 0xff) throw new UpstreamRefused(errorText(b));
      if (b[0] === 0xfe) {
        // Auth switch: another plugin, a new scramble.
        const z = b.indexOf(0, 1);
        plugin = b.toString('latin1', 1, z);
        scramble = b.subarray(z + 1, z + 21);
        sock.write(packet(seq, answer()));
        continue;
      }
      if (b[0] === 0x01 && plugin === 'caching_sha2_password') {
        if (b[1] === 0x03) continue; // fast auth succeeded: OK follows
        if (b[1] === 0x04) {
          // Full authentication: the password in TLS, else under the server's public key.
          if (secure) sock.write(packet(seq, Buffer.from(`${t.password}\0`)));
          else sock.write(packet(seq, Buffer.from([0x02])));
          continue;
        }
        // The public key.
        sock.write(packet(seq, rsaPassword(t.password, scramble, b.toString('latin1', 1))));
        continue;
      }
      throw new UpstreamRefused(`unexpected authentication packet 0x${(b[0] ?? 0).toString(16)}`);
    }
    return { link, sock, rest: packets.detach() };
  } catch (e) {
    packets.detach();
    link.close();
    throw e;
  }
}
