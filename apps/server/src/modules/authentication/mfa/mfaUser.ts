import type { FastifyRequest } from 'fastify';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';

/** What the MFA rules need to know about a user. */
export interface MfaUser {
  id: string;
  username: string;
  mfa_level: number;
  phone: string;
  source: string;
  /** Sealed TOTP seed, or null. */
  otp_secret_key: string | null;
}

/** `otp_radius`: the code goes to the RADIUS server as the password (OTP_IN_RADIUS). */
export type MfaType = 'otp' | 'sms' | 'otp_radius';

export async function loadMfaUser(req: FastifyRequest, userId: string): Promise<MfaUser | undefined> {
  return req.db
    .selectFrom('users_user')
    .select(['id', 'username', 'mfa_level', 'phone', 'source', 'otp_secret_key'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

async function isAdmin(req: FastifyRequest, userId: string): Promise<boolean> {
  const row = await req.db
    .selectFrom('rbac_rolebinding')
    .select('id')
    .where('user_id', '=', userId)
    .where('role_id', 'in', [BUILTIN_ROLE_IDS.SystemAdmin, BUILTIN_ROLE_IDS.OrgAdmin])
    .executeTakeFirst();
  return Boolean(row);
}

/** `SECURITY_MFA_AUTH` makes MFA mandatory for this user (1: everyone, 2: administrators). */
export async function mfaForcedBySetting(req: FastifyRequest, user: MfaUser): Promise<boolean> {
  const mode = Number(await req.server.deps.settings.get('SECURITY_MFA_AUTH'));
  return mode === 1 || (mode === 2 && (await isAdmin(req, user.id)));
}

/** `mfa_enabled` of the contract: the user's level is above 0 or a setting forces it. */
export async function mfaEnabled(req: FastifyRequest, user: MfaUser): Promise<boolean> {
  return user.mfa_level > 0 || (await mfaForcedBySetting(req, user));
}

/** The MFA backends this user can answer with now, strongest first. */
export async function activeMfaBackends(req: FastifyRequest, user: MfaUser): Promise<MfaType[]> {
  const out: MfaType[] = [];
  if (user.otp_secret_key) out.push('otp');
  if (user.phone && (await req.server.deps.settings.get('SMS_ENABLED'))) out.push('sms');
  if (await req.server.deps.settings.get('OTP_IN_RADIUS')) out.push('otp_radius');
  return out;
}

export const MFA_DISPLAY: Record<MfaType, { display_name: string; placeholder: string }> = {
  otp: { display_name: 'OTP', placeholder: 'OTP verification code' },
  sms: { display_name: 'SMS', placeholder: 'SMS verification code' },
  otp_radius: { display_name: 'Radius', placeholder: 'Radius verification code' },
};
