import { CSRF_HEADER, type LoginResult, type PublicOpenSettings } from '@gatehouse/contract';
import { csrfToken } from '../../lib/cookies.ts';

/** The login page's calls (`/core/auth/login/...` answer LoginResult, with data for the next step). */
export interface LoginAnswer extends LoginResult {
  data?: { choices?: string[]; url?: string; ticket_id?: string };
}

export interface OtpBinding {
  otpauth_url: string;
  secret: string;
  qr_code: string;
  issuer: string;
}

export const LOGIN_MFA_URL = '/core/auth/login/mfa/';
export const LOGIN_OTP_START_URL = '/core/auth/login/otp/start/';
export const LOGIN_OTP_BIND_URL = '/core/auth/login/otp/bind/';
export const MFA_SEND_CODE_URL = '/api/v1/authentication/mfa/select/';
export const PUBLIC_SETTINGS_URL = '/api/v1/settings/public/open/';
export const SMS_RESEND_SECONDS = 60;

export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', [CSRF_HEADER]: csrfToken() ?? '' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}

let open: Promise<PublicOpenSettings | undefined> | undefined;

/** The public settings a signed-out page may read, fetched once per page load. */
export function openSettings(): Promise<PublicOpenSettings | undefined> {
  open ??= fetch(PUBLIC_SETTINGS_URL)
    .then((r) => (r.ok ? (r.json() as Promise<PublicOpenSettings>) : undefined))
    .catch(() => undefined);
  return open;
}

/**
 * Where to go once signed in: the server answers `next` already made safe (`safeNext` in
 * apps/server/src/modules/authentication/passwordLogin.ts); this keeps only a same-site path here too,
 * so a wrong answer can never send the browser to another site.
 */
export function safeTarget(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/ui/';
  try {
    const url = new URL(next, window.location.origin);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}${url.hash}` : '/ui/';
  } catch {
    return '/ui/';
  }
}
