import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Writes the login log: every sign-in attempt, success or failure, with its
 * reason code, type (`X-JMS-LOGIN-TYPE`, default W), backend, address, user agent and MFA state.
 * A failure to write never breaks the sign-in itself.
 */
export interface LoginAttempt {
  username: string;
  status: boolean;
  /** Reason code of a failure (`password_failed`, `mfa_failed`…); empty on success. */
  reason?: string;
  /** 0 MFA disabled, 1 enabled, 2 unknown (e.g. the user was not found). */
  mfa: 0 | 1 | 2;
  backend?: string;
}

const TYPES = new Set(['W', 'T', 'U']);

/** The request's login type (`X-JMS-LOGIN-TYPE`, default W) and user agent, as the login log keeps them. */
export function loginOrigin(req: FastifyRequest): { type: string; user_agent: string; ip: string; city: string } {
  const header = req.headers['x-jms-login-type'];
  const type = typeof header === 'string' && TYPES.has(header.toUpperCase()) ? header.toUpperCase() : 'W';
  const ua = req.headers['user-agent'];
  return { type, user_agent: typeof ua === 'string' ? ua.slice(0, 254) : '', ip: req.ip, city: '' };
}

export async function writeLoginLog(req: FastifyRequest, a: LoginAttempt): Promise<void> {
  const { type, user_agent } = loginOrigin(req);
  const who = { username: a.username.slice(0, 128), ip: req.ip, type, backend: a.backend ?? 'password' };
  if (a.status) req.log.info(who, 'signed in');
  else req.log.warn({ ...who, reason: a.reason ?? '' }, 'sign-in refused');
  try {
    await req.server.deps.database.db
      .insertInto('audits_userloginlog')
      .values({
        id: randomUUID(),
        username: a.username.slice(0, 128),
        type,
        ip: req.ip,
        city: '',
        user_agent,
        mfa: a.mfa,
        reason: a.reason ?? '',
        backend: a.backend ?? 'password',
        status: a.status,
        datetime: new Date().toISOString(),
      })
      .execute();
  } catch (e) {
    req.log.error({ err: e }, 'login log not written');
  }
}
