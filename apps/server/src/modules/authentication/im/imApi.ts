import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { readAnswer } from '../sso/providerAnswer.ts';
import { SSO_TIMEOUT_SECONDS } from '../sso/ssoSite.ts';

/**
 * What the three messenger clients (wecom.ts, dingtalk.ts, feishu.ts) share: a JSON call to the
 * provider's API that ends after SSO_TIMEOUT_SECONDS, never follows a redirect and refuses answers
 * above 1 MiB; the provider's own error (`errcode`/`code` not 0) as an ImApiError; and the app's
 * access token kept sealed in the shared cache until shortly before it expires (the providers
 * limit how often one may be fetched), under a key that changes with the app's id and secret.
 */
export class ImApiError extends Error {}

export type ImJson = Record<string, unknown>;

export async function imCall(
  url: URL,
  init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ImJson> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(init.body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    redirect: 'error',
    signal: AbortSignal.timeout(SSO_TIMEOUT_SECONDS * 1000),
  });
  const answer = await readAnswer(res);
  // WeCom and DingTalk answer errcode/errmsg, FeiShu code/msg; 0 (or absent) is success.
  const code = answer.errcode ?? answer.code;
  if (code !== undefined && code !== 0 && code !== '0')
    throw new ImApiError(`${String(code)}: ${String(answer.errmsg ?? answer.msg ?? '').slice(0, 200)}`);
  return answer;
}

/** The base URL with `path` under it (the base may carry a path prefix of a private deployment). */
export function apiUrl(base: string, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The app's access token: from the cache (sealed) or fetched and kept until 60 s before it expires. */
export async function cachedToken(
  req: FastifyRequest,
  provider: string,
  appId: string,
  secret: string,
  fetchToken: () => Promise<{ token: string; expiresIn: number }>,
): Promise<string> {
  const { cache, secretBox } = req.server.deps;
  const key = `im_token:${provider}:${createHash('sha256').update(`${appId}\n${secret}`).digest('hex')}`;
  const kept = await cache.get<string>(key);
  if (kept) {
    try {
      return secretBox.decrypt(kept);
    } catch {
      /* sealed under another key: fetch a new one */
    }
  }
  const { token, expiresIn } = await fetchToken();
  if (!token) throw new ImApiError('no access token in the answer');
  const ttl = Math.min(Math.max(expiresIn - 60, 0), 7200);
  if (ttl > 0) await cache.set(key, secretBox.encrypt(token), ttl);
  return token;
}
