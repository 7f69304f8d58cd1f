import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatDateTime } from '../../http/datetime.ts';
import { issueToken } from '../../http/bearerTokens.ts';
import { t } from '../../http/messages.ts';
import type { AuthUser } from '../../http/context.ts';
import { ta } from './authMessages.ts';
import { clearFlow, loadFlow, saveFlow } from './authFlow.ts';
import { decryptSecret } from './browserKeys.ts';
import { mfaStepFor } from './mfa/mfaStep.ts';
import { checkPasswordLogin } from './passwordLogin.ts';
import { saveWaitingFlow } from './loginConfirm.ts';
import { writeLoginLog } from '../audits/loginLog.ts';

/** The signed-in user's profile sent with the token; the users module provides it (modules/index.ts). */
export type ProfileOf = (req: FastifyRequest, user: AuthUser) => Promise<object>;

interface TokenBody {
  username?: unknown;
  password?: unknown;
}

/**
 * `POST /api/v1/authentication/auth/` (== `tokens/`), the JumpServer API: a bearer token for scripts
 * and clients, a fresh one at each sign-in (http/bearerTokens.ts). With MFA the first answer is
 * 200 `{error: "mfa_required", msg, data: {choices, url}}` and a `jms_gh_bid` cookie holding the
 * pending sign-in (10 minutes); the client posts the code to `mfa/challenge/` with that cookie, then
 * posts its credentials here again and gets the token.
 */
async function createToken(
  req: FastifyRequest<{ Body: TokenBody }>,
  reply: FastifyReply,
  profileOf: ProfileOf,
): Promise<FastifyReply> {
  const body = req.body ?? {};
  const username = typeof body.username === 'string' ? body.username.trim() : '';
  const password =
    typeof body.password === 'string' && body.password ? await decryptSecret(req, body.password, 'password') : '';
  const missing: Record<string, string[]> = {};
  if (!username) missing.username = [t(req.lang, 'field_required')];
  if (!password) missing.password = [t(req.lang, 'field_required')];
  if (Object.keys(missing).length) return reply.code(400).send(missing);

  const outcome = await checkPasswordLogin(req, username, password);
  if (!outcome.ok && outcome.confirm) {
    const { ticketId, userId } = outcome.confirm;
    if (outcome.error === 'login_confirm_wait')
      await saveWaitingFlow(req, reply, { userId, username, autoLogin: false, next: '', confirmTicketId: ticketId });
    const data = outcome.error === 'login_confirm_wait' ? { ticket_id: ticketId } : { ticket_id: ticketId, username };
    return reply.send({ error: outcome.error, msg: outcome.msg, data });
  }
  if (!outcome.ok) return reply.code(400).send({ error: outcome.error, msg: outcome.msg });

  const step = await mfaStepFor(req, outcome.user.id);
  if (step.required) {
    const flow = await loadFlow(req);
    if (!flow || flow.userId !== outcome.user.id || !flow.mfaOk) {
      if (!step.choices.length) return reply.code(400).send({ error: ta(req.lang, 'mfa_unset') });
      await saveFlow(req, reply, {
        userId: outcome.user.id,
        username: outcome.user.username,
        mfaOk: false,
        autoLogin: false,
        next: '',
        at: Date.now(),
        // An approved login-confirm ticket still counts when the credentials come back after MFA.
        confirmTicketId: flow?.userId === outcome.user.id ? flow.confirmTicketId : undefined,
      });
      return reply.send({
        error: 'mfa_required',
        msg: ta(req.lang, 'mfa_required'),
        data: { choices: step.choices, url: '/api/v1/authentication/mfa/challenge/' },
      });
    }
  }
  // The sign-in is done: its flow (MFA passed, an approved login-confirm ticket) is used up.
  await clearFlow(req);

  const { settings } = req.server.deps;
  const ttl = await settings.get('TOKEN_EXPIRATION');
  // Always a fresh token: one issued before a password change or a deactivation stays ended.
  const token = await issueToken(req.server.deps, outcome.user.id, ttl);
  req.user = outcome.user;
  await writeLoginLog(req, {
    username: outcome.user.username,
    status: true,
    mfa: step.required ? 1 : 0,
    ...(outcome.backend ? { backend: outcome.backend } : {}),
  });
  return reply.code(201).send({
    token,
    keyword: 'Bearer',
    date_expired: formatDateTime(new Date(Date.now() + ttl * 1000), req.tz),
    user: await profileOf(req, outcome.user),
  });
}

export function registerTokenRoutes(app: FastifyInstance, profileOf: ProfileOf): void {
  for (const url of ['/api/v1/authentication/auth/', '/api/v1/authentication/tokens/']) {
    app.post<{ Body: TokenBody }>(url, { config: { public: true } }, (req, reply) =>
      createToken(req, reply, profileOf),
    );
  }
}
