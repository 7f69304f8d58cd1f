import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ta } from './authMessages.ts';
import { requireConfirm } from './confirm.ts';
import { loadMfaUser, mfaEnabled, mfaForcedBySetting } from './mfa/mfaUser.ts';
import { confirmOtpBinding, startOtpBinding, unbindOtp } from './mfa/otpBinding.ts';
import { shape } from '../../resource/describe.ts';

/**
 * OTP binding for the signed-in user (Gatehouse's API; JumpServer used HTML pages):
 * - `GET  /api/v1/authentication/otp/` → `{is_bound, mfa_level, mfa_enabled, mfa_force_enabled}`
 * - `POST /api/v1/authentication/otp/bind/start/` → `{otpauth_url, secret, qr_code, issuer}`; it
 *   reveals a secret, so it needs a recent re-verification (`relogin` level, the JumpServer API)
 * - `POST /api/v1/authentication/otp/bind/` `{code}` → `{msg: "ok"}`
 * - `POST /api/v1/authentication/otp/unbind/` `{code}` → `{msg: "ok"}`
 * Failures: 400 `{error, msg}`.
 */
const BASE = '/api/v1/authentication/otp/';

const codeOf = (req: FastifyRequest) => {
  const code = (req.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
};

async function status(req: FastifyRequest) {
  const user = (await loadMfaUser(req, req.user!.id))!;
  const forced = user.mfa_level === 2 || (await mfaForcedBySetting(req, user));
  return {
    is_bound: Boolean(user.otp_secret_key),
    mfa_level: forced ? 2 : user.mfa_level,
    mfa_enabled: await mfaEnabled(req, user),
    mfa_force_enabled: forced,
  };
}

async function start(req: FastifyRequest, reply: FastifyReply) {
  const user = (await loadMfaUser(req, req.user!.id))!;
  if (user.otp_secret_key)
    return reply.code(400).send({ error: 'otp_already_bound', msg: ta(req.lang, 'otp_already_bound') });
  await requireConfirm(req, 'relogin');
  const result = await startOtpBinding(req, user);
  return 'ok' in result ? reply.code(400).send({ error: result.error, msg: result.msg }) : reply.send(result);
}

async function bind(req: FastifyRequest, reply: FastifyReply) {
  const user = (await loadMfaUser(req, req.user!.id))!;
  const result = await confirmOtpBinding(req, user, codeOf(req));
  return result.ok ? reply.send({ msg: 'ok' }) : reply.code(400).send({ error: result.error, msg: result.msg });
}

async function unbind(req: FastifyRequest, reply: FastifyReply) {
  const user = (await loadMfaUser(req, req.user!.id))!;
  const result = await unbindOtp(req, user, codeOf(req));
  return result.ok ? reply.send({ msg: 'ok' }) : reply.code(400).send({ error: result.error, msg: result.msg });
}

export function registerOtpRoutes(app: FastifyInstance): void {
  app.get(
    BASE,
    {
      config: {
        describe: shape('otp', {
          is_bound: 'boolean',
          mfa_level: 'integer',
          mfa_enabled: 'boolean',
          mfa_force_enabled: 'boolean',
        }),
      },
    },
    status,
  );
  app.post(`${BASE}bind/start/`, start);
  app.post(`${BASE}bind/`, bind);
  app.post(`${BASE}unbind/`, unbind);
}
