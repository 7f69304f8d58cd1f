import type { FastifyReply } from 'fastify';
import { CSRF_COOKIE, PREFIX_COOKIE, COOKIE_PREFIX, SESSION_COOKIE, SESSION_EXPIRE_COOKIE } from '@gatehouse/contract';
import { randomToken } from '../platform/crypto/password.ts';

/** Cookie attributes shared by every Gatehouse cookie. */
const base = { path: '/', sameSite: 'lax', secure: 'auto' } as const;

export function setPrefixCookie(reply: FastifyReply): void {
  reply.setCookie(PREFIX_COOKIE, COOKIE_PREFIX, { ...base, httpOnly: false });
}

/** The CSRF cookie is readable by the page, which echoes it in `X-CSRFToken`. */
export function setCsrfCookie(reply: FastifyReply, token: string = randomToken(24)): string {
  reply.setCookie(CSRF_COOKIE, token, { ...base, httpOnly: false, maxAge: 365 * 86400 });
  return token;
}

/**
 * After login: the session cookie (HttpOnly) and `jms_session_expire` = `age` (persistent, "remember
 * me") or `close` (ends with the browser), each with the session's age.
 */
export function setSessionCookies(reply: FastifyReply, key: string, autoLogin: boolean, ageSeconds: number): void {
  reply.setCookie(SESSION_COOKIE, key, { ...base, httpOnly: true, ...(autoLogin ? { maxAge: ageSeconds } : {}) });
  reply.setCookie(SESSION_EXPIRE_COOKIE, autoLogin ? 'age' : 'close', { ...base, httpOnly: false, maxAge: ageSeconds });
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(SESSION_EXPIRE_COOKIE, { path: '/' });
}
