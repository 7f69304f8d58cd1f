/**
 * The error catalogue of the console as pure functions: which message a failed call shows, and
 * what the console does about it. The UI side (toasts, dialogs) is in `shell/session/`.
 */

/** Codes of the 400 answer that asks for a re-verification. */
export const CONFIRM_CODES = ['relogin', 'password', 'mfa'] as const;
export type ConfirmCode = (typeof CONFIRM_CODES)[number];

export const PROFILE_URL = '/api/v1/users/profile/';
export const PUBLIC_SETTINGS_URL = '/api/v1/settings/public/';
/** How long the error toast stays. */
export const ERROR_TOAST_SECONDS = 5;

/** Joins the strings of a value: arrays with `sep`, objects by their values. */
export function joinMessages(v: unknown, sep: string): string {
  if (Array.isArray(v))
    return v
      .map((x) => joinMessages(x, sep))
      .filter(Boolean)
      .join(sep);
  if (v && typeof v === 'object')
    return Object.values(v)
      .map((x) => joinMessages(x, sep))
      .filter(Boolean)
      .join(sep);
  return v === undefined || v === null ? '' : String(v);
}

/**
 * The message a body carries: `error`, `msg` or `detail` (arrays joined with semicolons),
 * `non_field_errors` joined with spaces, a list joined with semicolons; a short plain text as is.
 */
export function extractMessage(data: unknown): string {
  if (typeof data === 'string') return data.length < 300 && !data.trimStart().startsWith('<') ? data.trim() : '';
  if (!data || typeof data !== 'object') return '';
  if (Array.isArray(data)) return joinMessages(data, '; ');
  const body = data as Record<string, unknown>;
  for (const key of ['error', 'msg', 'detail']) if (body[key]) return joinMessages(body[key], '; ');
  if (body.non_field_errors) return joinMessages(body.non_field_errors, ' ');
  return '';
}

/** The confirm type a 400 answer asks for, if it is the re-verification answer. */
export function confirmCodeOf(status: number, data: unknown): ConfirmCode | undefined {
  if (status !== 400 || !data || typeof data !== 'object') return undefined;
  const code = (data as { code?: unknown }).code;
  return typeof code === 'string' && (CONFIRM_CODES as readonly string[]).includes(code)
    ? (code as ConfirmCode)
    : undefined;
}

const pathOf = (url: string) => {
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
};

export type ErrorAction =
  /** Straight to the login page (401 on the profile). */
  | { kind: 'login' }
  /** The "login required" confirm: Re-login or Cancel. */
  | { kind: 'relogin' }
  /** The public settings refused the host: trusted domains must be configured. */
  | { kind: 'trustedDomains' }
  /** An error toast: a catalogue key (`session.error.*`) or the server's own message. */
  | { kind: 'toast'; key?: string; message?: string };

/** What the console does about a failed call. `fallback` is the error's own message. */
export function errorAction(status: number, url: string, data: unknown, fallback = ''): ErrorAction {
  const path = pathOf(url);
  if (status === 401) return path === PROFILE_URL ? { kind: 'login' } : { kind: 'relogin' };
  if (status === 400 && (path === PUBLIC_SETTINGS_URL || path === `${PUBLIC_SETTINGS_URL}open/`))
    return { kind: 'trustedDomains' };
  const message = extractMessage(data);
  if (status === 400) return message ? { kind: 'toast', message } : { kind: 'toast', key: 'session.error.badRequest' };
  if (status === 403) return { kind: 'toast', key: 'session.error.forbidden' };
  if (status === 409) return { kind: 'toast', key: 'session.error.conflict' };
  if (status === 500) return { kind: 'toast', key: 'session.error.server' };
  return message || fallback
    ? { kind: 'toast', message: message || fallback }
    : { kind: 'toast', key: 'session.error.unknown' };
}
