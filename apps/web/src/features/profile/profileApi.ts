import type { Profile } from '@gatehouse/contract';
import { encryptSecret } from '../../lib/crypto.ts';
import { http } from '../../lib/http.ts';
import { PROFILE_URL } from '../../lib/httpErrors.ts';

/** The calls of the profile pages (OTP binding: docs/auth.md, "Pending sign-in, MFA and re-verification"). */
export interface FullProfile extends Profile {
  phone: { code: string; phone: string } | null;
  wechat: string;
  comment: string;
  is_otp_secret_key_bound: boolean;
  mfa_enabled: boolean;
  mfa_force_enabled: boolean;
  date_updated: string | null;
  wecom_id?: string | null;
  dingtalk_id?: string | null;
  feishu_id?: string | null;
}

export interface OtpStatus {
  is_bound: boolean;
  mfa_level: number;
  mfa_enabled: boolean;
  mfa_force_enabled: boolean;
}

export interface OtpBinding {
  otpauth_url: string;
  secret: string;
  qr_code: string;
  issuer: string;
}

export const PROFILE_KEY = ['profile', 'full'];
export const OTP_KEY = ['profile', 'otp'];
const OTP_URL = '/api/v1/authentication/otp/';

export const fetchProfile = () => http.get<FullProfile>(PROFILE_URL);

export const updateProfile = (patch: Record<string, unknown>) => http.patch<FullProfile>(PROFILE_URL, patch);

export interface PasswordValues {
  old_password: string;
  new_password: string;
  new_password_again: string;
}

/** The three fields leave encrypted. */
export async function changePassword(v: PasswordValues): Promise<void> {
  await http.put(`${PROFILE_URL}password/`, {
    old_password: await encryptSecret(v.old_password),
    new_password: await encryptSecret(v.new_password),
    new_password_again: await encryptSecret(v.new_password_again),
  });
}

export const fetchOtpStatus = () => http.get<OtpStatus>(OTP_URL);
/** Reveals a new seed: the server asks for a re-verification first, which the client handles. */
export const startOtpBinding = () => http.post<OtpBinding>(`${OTP_URL}bind/start/`, {});
export const confirmOtpBinding = (code: string) => http.post<{ msg: string }>(`${OTP_URL}bind/`, { code });
export const unbindOtp = (code: string) => http.post<{ msg: string }>(`${OTP_URL}unbind/`, { code });
