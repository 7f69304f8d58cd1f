import {
  CSRF_HEADER,
  DEFAULT_ORG_ID,
  ORG_HEADER,
  REQUEST_TIMEOUT_MS,
  SQL_COUNT_HEADER,
  SQL_DEBUG_HEADER,
  SYSTEM_ORG_ID,
  TZ_HEADER,
} from '@gatehouse/contract';
import { csrfToken } from './cookies.ts';
import { confirmCodeOf, type ConfirmCode } from './httpErrors.ts';
import { sqlDebugOn, sqlDigest } from './sqlDigest.ts';

/**
 * The console's one HTTP client: 120 s timeout without retry, the CSRF header, the
 * organisation header, the time-zone header, and the raw flag (whole response instead of body).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
    readonly url: string,
  ) {
    super(`HTTP ${status} for ${url}`);
    this.name = 'HttpError';
  }
}

export interface RequestOptions {
  params?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** A re-verification answer is returned as an error instead of opening the dialog. */
  noConfirm?: boolean;
  /** Only whether the call is allowed: a successful body is not read (e.g. before a download). */
  probe?: boolean;
}

export interface RawResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

/** Context the client reads on every call; the app state sets it. */
export const httpContext = {
  currentOrgId: undefined as string | undefined,
  xpackEnabled: false,
  /** Called with each successful response (the activity timer); every response also goes to the SQL digest. */
  onResponse: undefined as ((url: string, res: Response) => void) | undefined,
  /** Called with each failed response (the error catalogue, `shell/session/`). */
  onError: undefined as ((err: HttpError, opts: RequestOptions) => void) | undefined,
  /**
   * Opens the re-verification dialog for a call answered with the confirm-required 400; resolves
   * true once confirmed, and the call is then sent again.
   */
  confirm: undefined as ((type: ConfirmCode) => Promise<boolean>) | undefined,
};

export { csrfToken };

/** Org header rule: `?oid` of the page, else the current org; without the paid extension, DEFAULT unless SYSTEM. */
export function orgHeaderValue(search = window.location.search): string | undefined {
  const oid = new URLSearchParams(search).get('oid') ?? httpContext.currentOrgId;
  if (!oid) return undefined;
  if (!httpContext.xpackEnabled && oid !== SYSTEM_ORG_ID) return DEFAULT_ORG_ID;
  return oid;
}

export function buildUrl(url: string, params?: RequestOptions['params']): string {
  if (!params) return url;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.append(k, String(v));
  const s = q.toString();
  return s ? `${url}${url.includes('?') ? '&' : '?'}${s}` : url;
}

async function send<T>(method: string, url: string, opts: RequestOptions = {}): Promise<RawResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  const csrf = csrfToken();
  if (csrf) headers[CSRF_HEADER] = csrf;
  const org = orgHeaderValue();
  if (org) headers[ORG_HEADER] = org;
  headers[TZ_HEADER] = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (sqlDebugOn()) headers[SQL_DEBUG_HEADER] = '1';
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    if (opts.body instanceof Blob || opts.body instanceof FormData || typeof opts.body === 'string')
      body = opts.body as BodyInit;
    else {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const full = buildUrl(url, opts.params);
  const res = await fetch(full, { method, headers, body, signal, credentials: 'same-origin' });
  if (opts.probe && res.ok) {
    await res.body?.cancel().catch(() => undefined);
    sqlDigest.record(full, res.headers.get(SQL_COUNT_HEADER));
    httpContext.onResponse?.(full, res);
    return { status: res.status, headers: res.headers, data: undefined as T };
  }
  const text = await res.text();
  let data: unknown = text;
  if (text && (res.headers.get('content-type') ?? '').includes('json')) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  sqlDigest.record(full, res.headers.get(SQL_COUNT_HEADER));
  if (!res.ok) {
    const confirmType = confirmCodeOf(res.status, data);
    if (confirmType && !opts.noConfirm && httpContext.confirm && (await httpContext.confirm(confirmType))) {
      return send<T>(method, url, { ...opts, noConfirm: true });
    }
    const err = new HttpError(res.status, data, full);
    httpContext.onError?.(err, opts);
    throw err;
  }
  httpContext.onResponse?.(full, res);
  return { status: res.status, headers: res.headers, data: data as T };
}

export const http = {
  raw: send,
  get: async <T>(url: string, opts?: RequestOptions) => (await send<T>('GET', url, opts)).data,
  post: async <T>(url: string, body?: unknown, opts?: RequestOptions) =>
    (await send<T>('POST', url, { ...opts, body })).data,
  put: async <T>(url: string, body?: unknown, opts?: RequestOptions) =>
    (await send<T>('PUT', url, { ...opts, body })).data,
  patch: async <T>(url: string, body?: unknown, opts?: RequestOptions) =>
    (await send<T>('PATCH', url, { ...opts, body })).data,
  delete: async <T>(url: string, opts?: RequestOptions) => (await send<T>('DELETE', url, opts)).data,
};
