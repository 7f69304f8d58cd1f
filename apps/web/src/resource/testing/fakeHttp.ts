import type * as Http from '../../lib/http.ts';
import type { RawResponse, RequestOptions } from '../../lib/http.ts';

type HttpModule = typeof Http;
/** The real module, for its HttpError class and URL builder (the fake is installed by vi.mock). */
let actual: HttpModule;

/** A stand-in for `lib/http.ts`'s client: answers from a table of handlers and records every call. */
export interface FakeRequest {
  method: string;
  /** The full URL, query included. */
  url: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (req: FakeRequest) => unknown;

const handlers: { method: string; path: string | RegExp; handler: Handler }[] = [];
export const calls: FakeRequest[] = [];

/** Answers `method path` (exact path without query, or a pattern on the full URL); the latest wins. */
export function on(method: string, path: string | RegExp, handler: Handler | unknown): void {
  handlers.unshift({ method, path, handler: typeof handler === 'function' ? (handler as Handler) : () => handler });
}

/** A failed answer with a status and body, as the client raises it. */
export function fail(status: number, data: unknown): never {
  throw new actual.HttpError(status, data, '');
}

export function resetHttp(): void {
  handlers.length = 0;
  calls.length = 0;
}

export function callsTo(method: string, path: string): FakeRequest[] {
  return calls.filter((c) => c.method === method && c.path === path);
}

async function send<T>(method: string, url: string, opts: RequestOptions = {}): Promise<RawResponse<T>> {
  const full = actual.buildUrl(url, opts.params);
  const [path, search] = full.split('?');
  const req: FakeRequest = {
    method,
    url: full,
    path: path!,
    query: new URLSearchParams(search ?? ''),
    body: opts.body,
    headers: opts.headers ?? {},
  };
  calls.push(req);
  const h = handlers.find(
    (x) => x.method === method && (typeof x.path === 'string' ? x.path === req.path : x.path.test(full)),
  );
  if (!h) throw new actual.HttpError(404, { detail: `no fake for ${method} ${full}` }, full);
  try {
    const data = (await h.handler(req)) as T;
    return { status: 200, headers: new Headers(), data };
  } catch (e) {
    if (e instanceof actual.HttpError) throw new actual.HttpError(e.status, e.data, full);
    throw e;
  }
}

const fakeHttp = {
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

/** `vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()))` */
export function fakeHttpModule(real: HttpModule): HttpModule {
  actual = real;
  return { ...real, http: fakeHttp };
}
