import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in of HashiCorp Vault's HTTP API (Vault itself cannot be installed here): the
 * routes Gatehouse calls, answered as Vault documents them. `X-Vault-Token` must be `token`,
 * else 403 `{"errors":["permission denied"]}`; `GET /v1/auth/token/lookup-self`; a KV version 2
 * engine at `mount`: `GET /v1/<mount>/config`, `POST /v1/<mount>/data/<path>` `{data}` (answers
 * `{data:{version}}`, each write a new version), `GET /v1/<mount>/data/<path>`
 * (`{data:{data, metadata:{version}}}`, 404 `{"errors":[]}` when absent). Other mounts 404.
 */
export interface VaultStandIn {
  url: string;
  /** The latest version's data per path. */
  secrets: Map<string, { version: number; data: Record<string, string> }>;
  close(): Promise<void>;
}

export async function startVaultStandIn(token: string, mount: string): Promise<VaultStandIn> {
  const secrets = new Map<string, { version: number; data: Record<string, string> }>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const send = (status: number, json: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(json));
      if (req.headers['x-vault-token'] !== token) return send(403, { errors: ['permission denied'] });
      const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
      if (req.method === 'GET' && path === '/v1/auth/token/lookup-self')
        return send(200, { data: { id: token, policies: ['default'], ttl: 0 } });
      if (req.method === 'GET' && path === `/v1/${mount}/config`)
        return send(200, { data: { max_versions: 0, cas_required: false } });
      const prefix = `/v1/${mount}/data/`;
      if (!path.startsWith(prefix)) return send(404, { errors: [] });
      const key = path.slice(prefix.length);
      if (req.method === 'POST' || req.method === 'PUT') {
        const data = (JSON.parse(body || '{}') as { data?: Record<string, string> }).data;
        if (!data) return send(400, { errors: ['no data provided'] });
        const version = (secrets.get(key)?.version ?? 0) + 1;
        secrets.set(key, { version, data });
        return send(200, { data: { version, created_time: new Date().toISOString() } });
      }
      if (req.method === 'GET') {
        const s = secrets.get(key);
        return s ? send(200, { data: { data: s.data, metadata: { version: s.version } } }) : send(404, { errors: [] });
      }
      return send(405, { errors: ['unsupported operation'] });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    secrets,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
