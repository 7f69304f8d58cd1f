/**
 * A client of HashiCorp Vault's HTTP API, the parts Features › Vault uses: the token's own lookup
 * (`GET /v1/auth/token/lookup-self`), a KV version 2 engine's configuration
 * (`GET /v1/<mount>/config`) and its secrets (`POST|GET /v1/<mount>/data/<path>`), each with the
 * token in `X-Vault-Token`. Redirects are refused and every call times out after 10 s.
 */
export interface VaultConfig {
  host: string;
  token: string;
  mount: string;
}

export class VaultError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const seg = (s: string) => s.split('/').filter(Boolean).map(encodeURIComponent).join('/');

async function call(cfg: VaultConfig, method: string, path: string, body?: unknown): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(`/v1/${path}`, cfg.host);
  } catch {
    throw new VaultError(`not an address: ${cfg.host}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new VaultError(`not an address: ${cfg.host}`);
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { 'X-Vault-Token': cfg.token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new VaultError(cause ?? (e as Error).message);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!res.ok) {
    const errors = (json as { errors?: unknown }).errors;
    const detail = Array.isArray(errors) && errors.length ? String(errors[0]) : `HTTP ${res.status}`;
    throw new VaultError(detail, res.status);
  }
  return json;
}

/** The token is valid and the mount is a KV version 2 engine (its config answers). */
export async function checkVault(cfg: VaultConfig): Promise<void> {
  await call(cfg, 'GET', 'auth/token/lookup-self');
  await call(cfg, 'GET', `${seg(cfg.mount)}/config`);
}

export async function writeSecret(cfg: VaultConfig, path: string, data: Record<string, string>): Promise<number> {
  const r = (await call(cfg, 'POST', `${seg(cfg.mount)}/data/${seg(path)}`, { data })) as {
    data?: { version?: number };
  };
  return r.data?.version ?? 0;
}

export async function readSecret(cfg: VaultConfig, path: string): Promise<Record<string, string> | undefined> {
  try {
    const r = (await call(cfg, 'GET', `${seg(cfg.mount)}/data/${seg(path)}`)) as {
      data?: { data?: Record<string, string> };
    };
    return r.data?.data;
  } catch (e) {
    if (e instanceof VaultError && e.status === 404) return undefined;
    throw e;
  }
}
