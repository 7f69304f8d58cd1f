import { CSRF_COOKIE, LOGIN_PATH, SESSION_COOKIE } from '@gatehouse/contract';

/** HTTP helpers for benchmarks that drive a real listening server. */

/** Signs in as admin through the login endpoint; returns headers for reads and writes. */
export async function signIn(
  base: string,
  password: string,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const page = await fetch(new URL(LOGIN_PATH, base), { headers: extra });
  const csrf = /jms_csrftoken=([^;]+)/.exec(page.headers.getSetCookie().join(';'))![1]!;
  const res = await fetch(new URL(LOGIN_PATH, base), {
    method: 'POST',
    headers: { ...extra, 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=${csrf}`, 'x-csrftoken': csrf },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const set = res.headers.getSetCookie().join(';');
  const session = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(set)![1]!;
  const fresh = new RegExp(`${CSRF_COOKIE}=([^;]+)`).exec(set)?.[1] ?? csrf;
  return {
    cookie: `${SESSION_COOKIE}=${session}; ${CSRF_COOKIE}=${fresh}`,
    'x-csrftoken': fresh,
    'content-type': 'application/json',
  };
}

/** Reads a streamed response to the end without keeping it; returns the byte count. */
export async function drain(res: Response): Promise<number> {
  let bytes = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

/**
 * fetch, sent again once when the pooled connection it reused had been closed by the server
 * meanwhile (its keep-alive timeout passes while a benchmark measures the raw SQL side).
 */
export async function fetchFresh(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
    return fetch(url, init);
  }
}
