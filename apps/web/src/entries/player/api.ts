import { CSRF_HEADER } from '@gatehouse/contract';
import { csrfToken } from '../../lib/cookies.ts';

/**
 * The player's calls to the API. The session may belong to another org than the console's
 * current one: the page's `?oid=` (set by the console's links) names it in `X-JMS-ORG`.
 */
export function orgHeaders(): Record<string, string> {
  const oid = new URLSearchParams(location.search).get('oid');
  return oid ? { 'X-JMS-ORG': oid } : {};
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(url: string, init: { method?: string; body?: unknown; org?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...orgHeaders() };
  if (init.org) headers['X-JMS-ORG'] = init.org;
  if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers[CSRF_HEADER] = csrfToken() ?? '';
  }
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (res.status === 401) {
    location.href = `/core/auth/login/?next=${encodeURIComponent(location.pathname + location.search)}`;
    throw new ApiFailure(401, '');
  }
  const data = (await res.json().catch(() => ({}))) as unknown;
  if (!res.ok) {
    const d = data as { detail?: string; error?: string };
    throw new ApiFailure(res.status, d.detail ?? d.error ?? String(res.status));
  }
  return data as T;
}

export interface SessionInfo {
  id: string;
  user: string;
  asset: string;
  account: string;
  date_start: string;
  org_id?: string;
  is_finished: boolean;
}

export interface CommandRow {
  id: string;
  input: string;
  timestamp: number;
  /** The same moment in ms (commands of one second stay apart). */
  timestamp_ms?: number;
  risk_level: { value: number; label: string };
}
