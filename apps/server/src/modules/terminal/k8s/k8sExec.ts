import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import WebSocket from 'ws';
import type { Language } from '@gatehouse/contract';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import type { DB } from '../../../platform/db/schema.ts';
import { holdUntilListened, type RemoteShell } from '../gateway/remoteShell.ts';
import { connectFailed, connectK8s, k8sRefusal } from './k8sClient.ts';
import { resolveK8sTarget, type K8sTarget } from './k8sTarget.ts';

/**
 * A shell in a Kubernetes container as a gateway session's RemoteShell: the API server's
 * `pods/<pod>/exec` upgraded to a WebSocket with the `v4.channel.k8s.io` subprotocol. Every
 * binary message starts with its channel: 0 stdin (to the container), 1 stdout, 2 stderr, 3 the
 * exec's final Status (JSON), 4 a terminal resize `{"Width","Height"}`.
 */
export interface K8sContainer {
  namespace: string;
  pod: string;
  container: string;
}

export const K8S_EXEC_PROTOCOL = 'v4.channel.k8s.io';
const HANDSHAKE_MS = 15000;
const enc = encodeURIComponent;

export function execPath(c: K8sContainer): string {
  const q = `container=${enc(c.container)}&command=${enc('/bin/sh')}&stdin=true&stdout=true&stderr=true&tty=true`;
  return `/api/v1/namespaces/${enc(c.namespace)}/pods/${enc(c.pod)}/exec?${q}`;
}

/** The message of a failed exec's Status (channel 3), none for a success. */
export function execFailure(json: string): string | undefined {
  try {
    const s = JSON.parse(json) as { status?: unknown; message?: unknown };
    return s.status === 'Success' ? undefined : String(s.message ?? s.status ?? 'exec failed').slice(0, 500);
  } catch {
    return undefined;
  }
}

const frame = (channel: number, data: string | Buffer) => Buffer.concat([Buffer.of(channel), Buffer.from(data)]);

function execShell(
  db: Kysely<DB>,
  lang: Language,
  t: K8sTarget,
  c: K8sContainer,
  size: { cols: number; rows: number },
) {
  return new Promise<RemoteShell>((resolve, reject) => {
    void connectK8s(db, lang, t).then(
      (conn) => {
        const ws = new WebSocket(`wss://${t.host}:${t.port}${t.prefix}${execPath(c)}`, [K8S_EXEC_PROTOCOL], {
          headers: { Authorization: `Bearer ${t.token}` },
          createConnection: () => conn.socket,
          handshakeTimeout: HANDSHAKE_MS,
          rejectUnauthorized: false,
          perMessageDeflate: false,
        });
        let open = false;
        const shell = Object.assign(new EventEmitter<{ data: [Buffer]; close: ['closed' | 'error'] }>(), {
          write: (text: string) => {
            if (ws.readyState === ws.OPEN) ws.send(frame(0, text));
          },
          pause: () => ws.pause(),
          resume: () => ws.resume(),
          resize: (cols: number, rows: number) => {
            if (ws.readyState === ws.OPEN) ws.send(frame(4, JSON.stringify({ Width: cols, Height: rows })));
          },
          end: () => {
            ws.close(1000);
            conn.end();
          },
        });
        const deliver = holdUntilListened(shell);
        const output = (b: Buffer) => deliver(() => shell.emit('data', b));
        ws.on('unexpected-response', (_req, res) => {
          const chunks: Buffer[] = [];
          res.on('data', (b: Buffer) => chunks.push(b));
          res.on('end', () => {
            conn.end();
            reject(k8sRefusal(lang, t, res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
          });
        });
        ws.on('open', () => {
          open = true;
          shell.resize(size.cols, size.rows);
          resolve(shell);
        });
        ws.on('message', (data: Buffer, binary) => {
          const b = binary ? data : Buffer.from(data);
          if (b.length > 1 && (b[0] === 1 || b[0] === 2)) output(b.subarray(1));
          // Channel 3: the exec's end Status (the close that follows ends the session); a failure
          // (no /bin/sh in the image...) is shown to the user, who would otherwise see nothing.
          if (b[0] === 3) {
            const message = execFailure(b.subarray(1).toString('utf8'));
            if (message) output(Buffer.from(`\r\n${message}\r\n`));
          }
        });
        ws.on('error', (e) => {
          if (!open) {
            conn.end();
            reject(connectFailed(lang, t, e));
          } else deliver(() => shell.emit('close', 'error'));
        });
        ws.on('close', () => {
          conn.end();
          if (open) deliver(() => shell.emit('close', 'closed'));
        });
      },
      (e: Error) => reject(connectFailed(lang, t, e)),
    );
  });
}

/** Resolves the asset's API server and opens a shell in the container; `openMs` is how long that took. */
export async function openK8sShell(
  db: Kysely<DB>,
  box: SecretBox,
  lang: Language,
  assetId: string,
  accountId: string,
  c: K8sContainer,
  size: { cols: number; rows: number },
) {
  const t = await resolveK8sTarget(db, box, lang, assetId, accountId);
  const asked = Date.now();
  const shell = await execShell(db, lang, t, c, size);
  return { shell, orgId: t.orgId, display: t.display, openMs: Date.now() - asked };
}
