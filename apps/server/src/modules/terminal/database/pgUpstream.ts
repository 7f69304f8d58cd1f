import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { openDbLink, type DbLink, type DbTarget } from './dbTarget.ts';
import {
  errorFields,
  md5Password,
  MessageReader,
  passwordMessage,
  saslInitial,
  saslResponse,
  ScramClient,
  sslRequest,
  startupMessage,
  WireError,
} from './pgWire.ts';

/**
 * The proxy's own login to a PostgreSQL server with the account's secret: TLS first when the asset
 * says `use_ssl` (the server must accept it; `allow_invalid_cert` / `ca_cert` as the asset sets
 * them), then the startup message and whichever authentication the server asks: trust, cleartext,
 * md5 or SCRAM-SHA-256 (the server's signature is checked). Answers the open connection with what
 * the server sent up to its first ReadyForQuery (parameters, notices, the backend key).
 */
export interface PgUpstream {
  link: DbLink;
  sock: Duplex;
  /** ParameterStatus and NoticeResponse messages, as the server sent them. */
  preamble: Buffer[];
  backendKey?: Buffer;
  status: string;
  /** Bytes after the ReadyForQuery (none in practice). */
  rest: Buffer;
}

/** The server refused the login (its message), as opposed to a connection that failed. */
export class UpstreamRefused extends Error {}

const MAX = 1 << 20;

function readMessages(sock: Duplex, reader: MessageReader, onMessage: (type: string, body: Buffer) => boolean | void) {
  return new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      reader.push(chunk);
      try {
        for (let m = reader.next(); m; m = reader.next()) {
          if (onMessage(m.type, m.body)) {
            cleanup();
            return resolve();
          }
        }
      } catch (e) {
        cleanup();
        reject(e as Error);
      }
    };
    const onEnd = () => {
      cleanup();
      reject(new Error('the server closed the connection'));
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    const cleanup = () => {
      sock.off('data', onData);
      sock.off('end', onEnd);
      sock.off('close', onEnd);
      sock.off('error', onError);
    };
    sock.on('data', onData);
    sock.once('end', onEnd);
    sock.once('close', onEnd);
    sock.once('error', onError);
  });
}

async function startTls(sock: Duplex, t: DbTarget, opts: { ca?: string; insecure: boolean }): Promise<Duplex> {
  sock.write(sslRequest());
  const answer = await new Promise<string>((resolve, reject) => {
    sock.once('data', (b: Buffer) => resolve(String.fromCharCode(b[0]!)));
    sock.once('error', reject);
  });
  if (answer !== 'S') throw new UpstreamRefused('the server does not accept TLS (use_ssl is set on the asset)');
  const secure = tls.connect({
    socket: sock,
    servername: t.host,
    rejectUnauthorized: !opts.insecure,
    ...(opts.ca ? { ca: opts.ca } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    secure.once('secureConnect', () => resolve());
    secure.once('error', reject);
  });
  return secure;
}

export async function connectPg(
  db: Kysely<DB>,
  lang: Language,
  t: DbTarget,
  params: Record<string, string>,
  tlsOpts: { ca?: string; insecure: boolean },
): Promise<PgUpstream> {
  const link = await openDbLink(db, lang, t);
  try {
    const sock = t.useSsl ? await startTls(link.sock, t, tlsOpts) : link.sock;
    sock.write(startupMessage({ ...params, user: t.username, database: params.database || t.database || t.username }));
    const reader = new MessageReader(MAX);
    reader.typed = true;
    const preamble: Buffer[] = [];
    let backendKey: Buffer | undefined;
    let status = 'I';
    let scram: ScramClient | undefined;
    let authenticated = false;
    await readMessages(sock, reader, (type, body) => {
      if (type === 'E') {
        const f = errorFields(body);
        throw new UpstreamRefused(f.M ?? 'error');
      }
      if (type === 'R') {
        const code = body.readInt32BE(0);
        if (code === 0) authenticated = true;
        else if (code === 3) sock.write(passwordMessage(t.password));
        else if (code === 5) sock.write(passwordMessage(md5Password(t.username, t.password, body.subarray(4, 8))));
        else if (code === 10) {
          const mechanisms = body.toString('utf8', 4).split('\0');
          if (!mechanisms.includes('SCRAM-SHA-256'))
            throw new UpstreamRefused(`unsupported SASL mechanisms ${mechanisms.filter(Boolean).join(', ')}`);
          scram = new ScramClient(t.password);
          sock.write(saslInitial('SCRAM-SHA-256', scram.first()));
        } else if (code === 11 && scram) sock.write(saslResponse(scram.final(body.toString('utf8', 4))));
        else if (code === 12 && scram) {
          if (!scram.verify(body.toString('utf8', 4))) throw new UpstreamRefused('the server failed the SCRAM proof');
        } else throw new UpstreamRefused(`unsupported authentication request ${code}`);
        return false;
      }
      if (!authenticated) throw new WireError(`unexpected message ${type} before authentication`);
      if (type === 'K') backendKey = Buffer.from(body);
      else if (type === 'Z') {
        status = body.toString('latin1', 0, 1);
        return true;
      } else preamble.push(Buffer.concat([Buffer.from(type, 'latin1'), lengthOf(body), body]));
      return false;
    });
    return { link, sock, preamble, ...(backendKey ? { backendKey } : {}), status, rest: reader.rest() };
  } catch (e) {
    link.close();
    throw e;
  }
}

function lengthOf(body: Buffer): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(body.length + 4);
  return b;
}
