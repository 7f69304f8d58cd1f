/**
 * The SQL-query digest: an API response carries the number of database queries
 * it took (`X-JMS-SQL-COUNT`) when the console asked for it (see sqlDebugOn); the console keeps the count of the last 10 URLs and shows
 * them by the page title, over 5 as a warning and over 10 as danger.
 */
export const SQL_DIGEST_SIZE = 10;
/** `localStorage[SQL_DEBUG_STORAGE_KEY] = '1'` turns the digest on in a production build (a developer tip). */
export const SQL_DEBUG_STORAGE_KEY = 'gatehouse.sqlDigest';

/**
 * Whether the console asks the server for query counts (`X-JMS-SQL-DEBUG: 1`) and shows them:
 * in development builds, or with the localStorage flag. The server answers only superusers.
 */
export function sqlDebugOn(): boolean {
  if (import.meta.env.DEV) return true;
  try {
    return window.localStorage.getItem(SQL_DEBUG_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}
export const SQL_WARNING_OVER = 5;
export const SQL_DANGER_OVER = 10;

export interface SqlDigestEntry {
  url: string;
  count: number;
}

export type SqlLevel = 'normal' | 'warning' | 'danger';

export function sqlLevel(count: number): SqlLevel {
  if (count > SQL_DANGER_OVER) return 'danger';
  if (count > SQL_WARNING_OVER) return 'warning';
  return 'normal';
}

/** The path and query of a URL, without the host. */
function shortUrl(url: string): string {
  try {
    const u = new URL(url, 'http://x');
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** Newest first; a URL seen again moves to the front with its latest count. */
export function digestAdd(entries: readonly SqlDigestEntry[], url: string, count: number): SqlDigestEntry[] {
  const key = shortUrl(url);
  return [{ url: key, count }, ...entries.filter((e) => e.url !== key)].slice(0, SQL_DIGEST_SIZE);
}

type Listener = () => void;

/** The digest of this page, readable from React with useSyncExternalStore. */
export const sqlDigest = {
  entries: [] as SqlDigestEntry[],
  listeners: new Set<Listener>(),
  record(url: string, header: string | null): void {
    if (header === null || header === '') return;
    const count = Number(header);
    if (!Number.isFinite(count)) return;
    this.entries = digestAdd(this.entries, url, count);
    for (const l of this.listeners) l();
  },
  subscribe(listener: Listener): () => void {
    sqlDigest.listeners.add(listener);
    return () => sqlDigest.listeners.delete(listener);
  },
  snapshot(): SqlDigestEntry[] {
    return sqlDigest.entries;
  },
};
