import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { findActiveUser } from './userLookup.ts';
import { ta } from './authMessages.ts';
import { loadFlow, saveFlow } from './authFlow.ts';
import { activeMfaBackends, loadMfaUser } from './mfa/mfaUser.ts';
import { sendUserSmsCode } from './mfa/sms.ts';
import { verifyMfaCode } from './mfa/verifyMfa.ts';

/**
 * MFA steps of the token API and of re-verification:
 * - `POST /api/v1/authentication/mfa/challenge/` (== `mfa/verify/`) `{type, code}` → `{msg: "ok"}`
 *   marks the pending sign-in's MFA done; 400 `{error, msg}`; 401 without a pending sign-in.
 * - `POST /api/v1/authentication/mfa/select/` (== `mfa/send-code/`) `{type: "sms"}` sends an SMS
 *   code to the signed-in user, or else to the user of the pending sign-in. A `username` in the
 *   body is accepted only when it names that same user (no sending codes to anyone by name).
 */
const sessionEmpty = (req: FastifyRequest) =>
  new ApiError(401, { error: 'session_empty', msg: ta(req.lang, 'session_empty') });

interface ChallengeBody {
  type?: unknown;
  code?: unknown;
}

async function challenge(req: FastifyRequest<{ Body: ChallengeBody }>, reply: FastifyReply) {
  const flow = await loadFlow(req);
  if (!flow) throw sessionEmpty(req);
  const user = await loadMfaUser(req, flow.userId);
  if (!user || !(await findActiveUser(req.db, flow.userId))) throw sessionEmpty(req);
  const body = req.body ?? {};
  const type = typeof body.type === 'string' && body.type ? body.type : 'otp';
  const code = typeof body.code === 'string' || typeof body.code === 'number' ? String(body.code) : '';
  const check = await verifyMfaCode(req, user, type, code);
  if (!check.ok)
    return reply
      .code(400)
      .send({ error: check.error === 'mfa_code_format' ? 'mfa_failed' : check.error, msg: check.msg });
  await saveFlow(req, reply, { ...flow, mfaOk: true });
  return { msg: 'ok' };
}

async function select(req: FastifyRequest<{ Body: { type?: unknown; username?: unknown } }>, reply: FastifyReply) {
  const body = req.body ?? {};
  const type = typeof body.type === 'string' ? body.type : '';
  let userId = req.user?.id;
  if (!userId) {
    const flow = await loadFlow(req);
    if (!flow || (typeof body.username === 'string' && body.username && body.username !== flow.username))
      throw sessionEmpty(req);
    userId = flow.userId;
  }
  const user = await loadMfaUser(req, userId);
  if (!user) throw sessionEmpty(req);
  if (type !== 'sms' || !(await activeMfaBackends(req, user)).includes('sms')) {
    return reply.code(400).send({ error: ta(req.lang, 'mfa_type_unsupported', { type: type || '-' }) });
  }
  const sent = await sendUserSmsCode(req, user);
  if (!sent.ok) return reply.code(400).send({ error: sent.msg });
  return { msg: ta(req.lang, 'sms_sent') };
}

export function registerMfaRoutes(app: FastifyInstance): void {
  for (const path of ['challenge', 'verify'])
    app.post(`/api/v1/authentication/mfa/${path}/`, { config: { public: true } }, challenge);
  for (const path of ['select', 'send-code'])
    app.post(`/api/v1/authentication/mfa/${path}/`, { config: { public: true } }, select);
}
