import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every mail it accepts:
 * envelope, decoded subject and decoded text. `refuse(n)` makes it answer the next n mails' DATA
 * with a temporary 451 (a busy server), as a peer that refuses and then accepts. No TLS, no
 * authentication required (any credentials are accepted and recorded).
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The message with quoted-printable and base64 parts decoded (enough to search for text). */
  text: string;
  /** The message as received (latin1), to read attachments from (`attachmentOf`). */
  raw: string;
  user?: string;
}

/** The bytes of the attachment named `filename` (a base64 MIME part), or undefined. */
export function attachmentOf(mail: ReceivedMail, filename: string): Buffer | undefined {
  const name = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`filename="?${name}"?[^]*?\\r?\\n\\r?\\n([A-Za-z0-9+/=\\r\\n]+)`).exec(mail.raw);
  return m ? Buffer.from(m[1]!.replace(/\s/g, ''), 'base64') : undefined;
}

export interface SmtpPeer {
  port: number;
  mails: ReceivedMail[];
  /** Mails refused so far. */
  refused: number;
  refuse(n: number): void;
  close(): Promise<void>;
}

function decodeWords(s: string): string {
  return s.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, '');
  const bytes = Buffer.from(
    qp.replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
  // base64 parts: decode long base64 runs too.
  const b64 = [...raw.matchAll(/\r?\n\r?\n([A-Za-z0-9+/=\r\n]{40,})/g)]
    .map((m) => Buffer.from(m[1]!.replace(/\s/g, ''), 'base64').toString('utf8'))
    .join('\n');
  return `${bytes}\n${b64}`;
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const m = new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  return m ? m[1]!.replace(/\r?\n[ \t]/g, ' ').trim() : '';
}

export async function startSmtpPeer(): Promise<SmtpPeer> {
  let refuseNext = 0;
  const peer: SmtpPeer = {
    port: 0,
    mails: [],
    refused: 0,
    refuse(n) {
      refuseNext = n;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth(auth, _session, cb) {
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext -= 1;
          peer.refused += 1;
          const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
          return cb(err);
        }
        const raw = Buffer.concat(chunks).toString('latin1');
        peer.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: decodeWords(header(raw, 'Subject')),
          text: decodeBody(raw),
          raw,
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  peer.port = (server.server.address() as AddressInfo).port;
  return peer;
}
