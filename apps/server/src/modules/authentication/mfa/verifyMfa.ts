import type { FastifyRequest } from 'fastify';
import { notifyUser } from '../../notifications/systemMessages.ts';
import { ta } from '../authMessages.ts';
import { Lockout } from '../lockout.ts';
import { checkTotp } from './otp.ts';
import { checkSmsCode } from './sms.ts';
import { radiusCheck, RadiusUnavailable } from '../radius/client.ts';
import { loadRadiusConfig } from '../radius/config.ts';
import { IM } from '../radius/messages.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { activeMfaBackends, type MfaType, type MfaUser } from './mfaUser.ts';

export type MfaCheck =
  | { ok: true }
  | { ok: false; error: 'mfa_failed' | 'block_mfa' | 'mfa_code_format' | 'mfa_type_unsupported'; msg: string };

/** Opens the user's sealed TOTP seed. */
export function otpSecretOf(req: FastifyRequest, user: Pick<MfaUser, 'otp_secret_key'>): string | undefined {
  if (!user.otp_secret_key) return undefined;
  try {
    return req.server.deps.secretBox.decrypt(user.otp_secret_key);
  } catch {
    req.log.error('an OTP seed does not open with the secret key: was GATEHOUSE_SECRET_KEY or secret.key changed?');
    return undefined;
  }
}

/**
 * Checks an MFA code. Failures count towards the MFA lock (`_MFA_LIMIT_<user>_<ip>`) with the login limits; at the limit the user is blocked and told by a site message.
 * A code that is not 6 characters is refused before it is looked at.
 */
export async function verifyMfaCode(req: FastifyRequest, user: MfaUser, type: string, code: string): Promise<MfaCheck> {
  const { cache, settings } = req.server.deps;
  const lockout = new Lockout(cache, 'MFA');
  const policy = {
    limitCount: await settings.get('SECURITY_LOGIN_LIMIT_COUNT'),
    limitMinutes: await settings.get('SECURITY_LOGIN_LIMIT_TIME'),
  };
  const blocked = {
    ok: false,
    error: 'block_mfa',
    msg: ta(req.lang, 'block_mfa', { minutes: policy.limitMinutes }),
  } as const;
  if (await lockout.isBlocked(user.username)) return blocked;
  const backends = await activeMfaBackends(req, user);
  if (!backends.includes(type as MfaType))
    return { ok: false, error: 'mfa_type_unsupported', msg: ta(req.lang, 'mfa_type_unsupported', { type }) };
  const trimmed = code.trim();
  if (trimmed.length !== 6) return { ok: false, error: 'mfa_code_format', msg: ta(req.lang, 'mfa_code_format') };

  let valid = false;
  if (type === 'otp') {
    const secret = otpSecretOf(req, user);
    valid =
      Boolean(secret) &&
      (await checkTotp(cache, user.id, secret!, trimmed, Number(await settings.get('OTP_VALID_WINDOW')) || 2));
  } else if (type === 'otp_radius') {
    try {
      valid = await radiusCheck(await loadRadiusConfig(settings), user.username, trimmed);
    } catch (e) {
      if (!(e instanceof RadiusUnavailable)) throw e;
      // Not the user's fault: not counted toward the MFA lock.
      return { ok: false, error: 'mfa_failed', msg: tr(req.lang, IM.radius_unavailable, { error: e.message }) };
    }
  } else {
    valid = await checkSmsCode(req, user.id, trimmed);
  }
  if (valid) {
    await lockout.succeed(user.username, req.ip);
    return { ok: true };
  }
  const left = await lockout.fail(user.username, req.ip, policy);
  if (left === 0) {
    await notifyUser(req, user, 'account_locked', { minutes: policy.limitMinutes, what: 'mfa' });
    return blocked;
  }
  const error =
    type === 'otp_radius'
      ? tr(req.lang, IM.radius_otp_invalid)
      : ta(req.lang, type === 'otp' ? 'otp_invalid' : 'sms_invalid');
  return {
    ok: false,
    error: 'mfa_failed',
    msg: ta(req.lang, 'mfa_failed', { error, times: left, minutes: policy.limitMinutes }),
  };
}
