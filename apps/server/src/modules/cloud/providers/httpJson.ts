import { CloudError } from './provider.ts';

/**
 * One HTTP request of a JSON API for the cloud adapters (azure.ts, aliyunEcs.ts): a timeout, a
 * bound on the answer's size and the answer parsed. An unreachable or silent provider is
 * `provider_unreachable`; a body over the bound or not JSON at all is `provider_garbage`.
 */
export const MAX_BODY = 20 * 1024 * 1024;

export interface JsonAnswer {
  status: number;
  headers: Headers;
  json: unknown;
}

export async function requestJson(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  signal: AbortSignal,
  timeoutMs: number,
): Promise<JsonAnswer> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
    const len = Number(res.headers.get('content-length') ?? 0);
    if (len > MAX_BODY) {
      await res.body?.cancel();
      throw new CloudError('provider_garbage', { detail: `${len} bytes` });
    }
    text = await res.text();
  } catch (e) {
    if (e instanceof CloudError) throw e;
    const err = e as Error;
    throw new CloudError('provider_unreachable', { detail: err.name === 'TimeoutError' ? 'timed out' : err.message });
  }
  if (text.length > MAX_BODY) throw new CloudError('provider_garbage', { detail: `${text.length} bytes` });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CloudError('provider_garbage', { detail: `HTTP ${res.status}: not JSON` });
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new CloudError('provider_garbage', { detail: `HTTP ${res.status}: not a JSON object` });
  return { status: res.status, headers: res.headers, json };
}

/** A string field of a parsed JSON object ('' when absent or not a string). */
export const str = (o: unknown, key: string): string => {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
};

/** An object field ({} when absent or not an object). */
export const obj = (o: unknown, key: string): Record<string, unknown> => {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
};

/** An array field, or undefined when it is not an array. */
export const arr = (o: unknown, key: string): unknown[] | undefined => {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return Array.isArray(v) ? v : undefined;
};

/** Tags as the strategies read them: strings cut at 128/256 characters (as awsEc2.ts). */
export function tagsOf(o: unknown): Record<string, string> {
  const tags: Record<string, string> = {};
  if (o && typeof o === 'object' && !Array.isArray(o))
    for (const [k, v] of Object.entries(o)) tags[k.slice(0, 128)] = String(v ?? '').slice(0, 256);
  return tags;
}

export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
