import type { FastifyRequest } from 'fastify';
import { Lockout } from '../lockout.ts';
import { loadMfaUser, mfaForcedBySetting } from './mfaUser.ts';

/**
 * The MFA-related fields of the user and profile serializers:
 * `is_otp_secret_key_bound`, `mfa_enabled`, `mfa_force_enabled`, the effective `mfa_level`
 * (2 when a setting forces MFA) and `login_blocked` (login or MFA lock present).
 */
export interface MfaProfileFields {
  mfa_level: number;
  is_otp_secret_key_bound: boolean;
  mfa_enabled: boolean;
  mfa_force_enabled: boolean;
  login_blocked: boolean;
}

export async function mfaProfileFields(req: FastifyRequest, userId: string): Promise<MfaProfileFields> {
  const user = await loadMfaUser(req, userId);
  if (!user)
    return {
      mfa_level: 0,
      is_otp_secret_key_bound: false,
      mfa_enabled: false,
      mfa_force_enabled: false,
      login_blocked: false,
    };
  const forced = user.mfa_level === 2 || (await mfaForcedBySetting(req, user));
  const { cache } = req.server.deps;
  const blocked =
    (await new Lockout(cache, 'LOGIN').isBlocked(user.username)) ||
    (await new Lockout(cache, 'MFA').isBlocked(user.username));
  return {
    mfa_level: forced ? 2 : user.mfa_level,
    is_otp_secret_key_bound: Boolean(user.otp_secret_key),
    mfa_enabled: forced || user.mfa_level > 0,
    mfa_force_enabled: forced,
    login_blocked: blocked,
  };
}
