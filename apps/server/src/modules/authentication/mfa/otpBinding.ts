import type { FastifyRequest } from 'fastify';
import { nowIso } from '../../../platform/db/schema.ts';
import { notifyUser } from '../../notifications/systemMessages.ts';
import { ta } from '../authMessages.ts';
import { checkTotp, newOtpSecret, otpauthUri, otpQrCode } from './otp.ts';
import type { MfaUser } from './mfaUser.ts';
import { verifyMfaCode } from './verifyMfa.ts';

/**
 * Binding a TOTP authenticator: `start` makes a seed (kept sealed in the cache for 10 minutes)
 * and shows it as an otpauth:// URI and a QR code; the first valid code stores it, sealed, in
 * `users_user.otp_secret_key`. Unbinding needs a valid code of the bound authenticator.
 */
const PENDING_TTL_SECONDS = 600;
const pendingKey = (userId: string) => `_OTP_PENDING_${userId}`;

export interface OtpBindingStart {
  otpauth_url: string;
  /** The base32 seed, for apps without a camera. */
  secret: string;
  /** PNG data URL of the QR code. */
  qr_code: string;
  issuer: string;
}

export type Failure = { ok: false; error: string; msg: string };
export type Outcome = { ok: true } | Failure;

export async function startOtpBinding(req: FastifyRequest, user: MfaUser): Promise<OtpBindingStart | Failure> {
  if (user.otp_secret_key) return { ok: false, error: 'otp_already_bound', msg: ta(req.lang, 'otp_already_bound') };
  const { cache, secretBox, settings } = req.server.deps;
  const secret = newOtpSecret();
  await cache.set(pendingKey(user.id), secretBox.encrypt(secret), PENDING_TTL_SECONDS);
  const issuer = String(await settings.get('OTP_ISSUER_NAME')) || 'Gatehouse';
  const uri = otpauthUri(secret, issuer, user.username);
  return { otpauth_url: uri, secret, qr_code: await otpQrCode(uri), issuer };
}

export async function confirmOtpBinding(req: FastifyRequest, user: MfaUser, code: string): Promise<Outcome> {
  const { cache, secretBox, settings } = req.server.deps;
  if (user.otp_secret_key) return { ok: false, error: 'otp_already_bound', msg: ta(req.lang, 'otp_already_bound') };
  const sealed = await cache.get<string>(pendingKey(user.id));
  if (!sealed) return { ok: false, error: 'otp_bind_expired', msg: ta(req.lang, 'otp_bind_expired') };
  const trimmed = code.trim();
  if (trimmed.length !== 6) return { ok: false, error: 'mfa_code_format', msg: ta(req.lang, 'mfa_code_format') };
  const secret = secretBox.decrypt(sealed);
  if (!(await checkTotp(cache, user.id, secret, trimmed, Number(await settings.get('OTP_VALID_WINDOW')) || 2))) {
    return { ok: false, error: 'mfa_failed', msg: ta(req.lang, 'otp_invalid') };
  }
  await req.db
    .updateTable('users_user')
    .set({ otp_secret_key: secretBox.encrypt(secret), mfa_level: Math.max(1, user.mfa_level), date_updated: nowIso() })
    .where('id', '=', user.id)
    .execute();
  await cache.delete(pendingKey(user.id));
  user.otp_secret_key = 'bound';
  await notifyUser(req, user, 'mfa_bound');
  return { ok: true };
}

export async function unbindOtp(req: FastifyRequest, user: MfaUser, code: string): Promise<Outcome> {
  if (!user.otp_secret_key) return { ok: false, error: 'otp_not_bound', msg: ta(req.lang, 'otp_not_bound') };
  const check = await verifyMfaCode(req, user, 'otp', code);
  if (!check.ok) return check;
  // A level the administrator forced (2) stays: the next sign-in asks to bind again.
  await req.db
    .updateTable('users_user')
    .set({ otp_secret_key: null, mfa_level: user.mfa_level === 1 ? 0 : user.mfa_level, date_updated: nowIso() })
    .where('id', '=', user.id)
    .execute();
  await notifyUser(req, user, 'mfa_removed');
  return { ok: true };
}
