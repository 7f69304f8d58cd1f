import { COOKIE_PREFIX, PREFIX_COOKIE } from '@gatehouse/contract';

/** Small cookie helpers for the cookies the contract shares with the server. */
export function getCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const p = part.trim();
    if (p.startsWith(prefix)) return decodeURIComponent(p.slice(prefix.length));
  }
  return undefined;
}

export interface CookieOptions {
  /** Seconds; omitted = ends with the browser. */
  maxAge?: number;
  path?: string;
}

export function setCookie(name: string, value: string, opts: CookieOptions = {}): void {
  let c = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=${opts.path ?? '/'}; SameSite=Lax`;
  if (opts.maxAge !== undefined) c += `; max-age=${opts.maxAge}`;
  document.cookie = c;
}

export function deleteCookie(name: string, path = '/'): void {
  document.cookie = `${encodeURIComponent(name)}=; path=${path}; max-age=0`;
}

/** The CSRF token the server set (its cookie name follows the session cookie prefix). */
export function csrfToken(): string | undefined {
  return getCookie(`${getCookie(PREFIX_COOKIE) ?? COOKIE_PREFIX}csrftoken`);
}
