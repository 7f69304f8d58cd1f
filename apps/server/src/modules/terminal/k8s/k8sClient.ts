import https from 'node:https';
import tls from 'node:tls';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { openTunnel } from '../gateway/sshConnect.ts';
import type { K8sTarget } from './k8sTarget.ts';

/**
 * Requests to a Kubernetes API server over TLS, through the domain gateway's SSH tunnel when the
 * asset has one. The server's certificate is not verified: clusters mostly serve one signed by
 * their own CA, which the asset does not carry, and the original's koko connects the same way
 * (no TLS verification for k8s). The bearer token goes in the Authorization header only.
 * A refusal (401/403) or any failure is a GatewayError in the user's language.
 */
const TIMEOUT_MS = 15000;

export interface K8sConnection {
  socket: tls.TLSSocket;
  /** Closes the TLS socket and the tunnel. */
  end(): void;
}

/** A TLS connection to the API server (not yet necessarily established). */
export async function connectK8s(db: Kysely<DB>, lang: Language, t: K8sTarget): Promise<K8sConnection> {
  const tlsOpts = { ...(t.servername ? { servername: t.servername } : {}), rejectUnauthorized: false };
  if (!t.gateway) {
    const socket = tls.connect({ host: t.host, port: t.port, ...tlsOpts });
    return { socket, end: () => socket.destroy() };
  }
  const tunnel = await openTunnel(db, lang, t.gateway, t);
  const socket = tls.connect({ socket: tunnel.sock, ...tlsOpts });
  socket.once('close', () => tunnel.jump.end());
  return {
    socket,
    end: () => {
      socket.destroy();
      tunnel.jump.end();
    },
  };
}

/** The refusal of an API server's answer `status` with its Status object's message, if any. */
export function k8sRefusal(lang: Language, t: K8sTarget, status: number, body: string): GatewayError {
  let message = '';
  try {
    message = String((JSON.parse(body) as { message?: unknown }).message ?? '');
  } catch {
    message = body.slice(0, 200);
  }
  const key = status === 401 ? 'k8s_unauthorized' : status === 403 ? 'k8s_forbidden' : 'k8s_failed';
  return new GatewayError(key, lang, { target: `${t.host}:${t.port}`, status, error: message.slice(0, 300) });
}

export const connectFailed = (lang: Language, t: K8sTarget, e: Error) =>
  e instanceof GatewayError
    ? e
    : new GatewayError('connect_failed', lang, { target: `${t.host}:${t.port}`, error: e.message });

/** GET `path` (under the server's prefix) and parse the JSON answer. */
export async function k8sGet<T>(db: Kysely<DB>, lang: Language, t: K8sTarget, path: string): Promise<T> {
  const conn = await connectK8s(db, lang, t).catch((e: Error) => Promise.reject(connectFailed(lang, t, e)));
  try {
    return await new Promise<T>((resolve, reject) => {
      const req = https.request(
        {
          host: t.host,
          port: t.port,
          path: `${t.prefix}${path}`,
          method: 'GET',
          headers: { Authorization: `Bearer ${t.token}`, Accept: 'application/json' },
          createConnection: () => conn.socket,
          timeout: TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => reject(connectFailed(lang, t, e)));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status >= 300) return reject(k8sRefusal(lang, t, status, body));
            try {
              resolve(JSON.parse(body) as T);
            } catch {
              reject(
                new GatewayError('k8s_failed', lang, { target: `${t.host}:${t.port}`, status, error: 'not JSON' }),
              );
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (e) => reject(connectFailed(lang, t, e)));
      req.end();
    });
  } finally {
    conn.end();
  }
}

interface Named {
  metadata?: { name?: string };
}

export async function listNamespaces(db: Kysely<DB>, lang: Language, t: K8sTarget): Promise<string[]> {
  const list = await k8sGet<{ items?: Named[] }>(db, lang, t, '/api/v1/namespaces');
  return names(list.items);
}

export async function listPods(db: Kysely<DB>, lang: Language, t: K8sTarget, namespace: string): Promise<string[]> {
  const list = await k8sGet<{ items?: Named[] }>(db, lang, t, `/api/v1/namespaces/${enc(namespace)}/pods`);
  return names(list.items);
}

export async function listContainers(
  db: Kysely<DB>,
  lang: Language,
  t: K8sTarget,
  namespace: string,
  pod: string,
): Promise<string[]> {
  const p = await k8sGet<{ spec?: { containers?: { name?: string }[] } }>(
    db,
    lang,
    t,
    `/api/v1/namespaces/${enc(namespace)}/pods/${enc(pod)}`,
  );
  return (p.spec?.containers ?? []).map((c) => String(c.name ?? '')).filter(Boolean);
}

const enc = encodeURIComponent;

function names(items: Named[] | undefined): string[] {
  return (items ?? [])
    .map((i) => String(i.metadata?.name ?? ''))
    .filter(Boolean)
    .sort();
}
