import { CSRF_HEADER, type LoginResult } from '@gatehouse/contract';
import { csrfToken } from '../../lib/http.ts';

/** The login page's calls (`/core/auth/login/...` answer LoginResult, with data for the next step). */
export interface LoginAnswer extends LoginResult {
  data?: { choices?: string[]; url?: string };
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
