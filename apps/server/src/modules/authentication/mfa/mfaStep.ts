import type { FastifyRequest } from 'fastify';
import { activeMfaBackends, loadMfaUser, mfaEnabled, type MfaType } from './mfaUser.ts';

/** Whether a sign-in of this user needs a second step, and with which backends (none: MFA unset). */
export type MfaStep = { required: false } | { required: true; choices: MfaType[] };

export async function mfaStepFor(req: FastifyRequest, userId: string): Promise<MfaStep> {
  const user = await loadMfaUser(req, userId);
  if (!user || !(await mfaEnabled(req, user))) return { required: false };
  return { required: true, choices: await activeMfaBackends(req, user) };
}
