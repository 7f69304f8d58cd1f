import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Cache } from '../../../platform/cache/index.ts';

/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s) as authenticator apps expect, with `OTP_VALID_WINDOW`
 * steps of clock drift either way. A code is accepted once: the last accepted time step per user
 * is remembered, and a code of that step or an earlier one is refused (RFC 6238 §5.2).
 */
export const OTP_DIGITS = 6;
const PERIOD = 30;

export function newOtpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, issuer = 'Gatehouse', label = 'user'): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: OTP_DIGITS,
    period: PERIOD,
  });
}

export function otpauthUri(secret: string, issuer: string, username: string): string {
  return totp(secret, issuer, username).toString();
}

export function otpQrCode(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

const lastStepKey = (userId: string) => `_OTP_LAST_STEP_${userId}`;

/** Checks a code against the seed; `userId` enables the one-use rule. */
export async function checkTotp(
  cache: Cache,
  userId: string,
  secret: string,
  code: string,
  window: number,
): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const t = totp(secret);
  const delta = t.validate({ token: code, window });
  if (delta === null) return false;
  const step = t.counter() + delta;
  const last = await cache.get<number>(lastStepKey(userId));
  if (last !== undefined && step <= last) return false;
  await cache.set(lastStepKey(userId), step, (2 * window + 2) * PERIOD);
  return true;
}

/** The code an authenticator app shows at `timestamp` (tests and tools). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return totp(secret).generate({ timestamp });
}
