import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { ta } from './authMessages.ts';

/**
 * Re-verification. A successful `POST /api/v1/authentication/confirm/` records
 * the level reached (relogin 1, password 2, mfa 3) and when. Session callers keep it in the
 * session (it ends with it); Bearer callers in the cache under the token's hash.
 */
export const CONFIRM_TYPES = ['relogin', 'password', 'mfa'] as const;
export type ConfirmType = (typeof CONFIRM_TYPES)[number];
export const CONFIRM_LEVEL: Record<ConfirmType, number> = { relogin: 1, password: 2, mfa: 3 };
/** How long a confirmation holds, except for mfa (SECURITY_MFA_VERIFY_TTL). */
export const CONFIRM_TTL_SECONDS = 300;

interface ConfirmState {
  level: number;
  /** Epoch seconds. */
  time: number;
}

export function isConfirmType(v: unknown): v is ConfirmType {
  return typeof v === 'string' && (CONFIRM_TYPES as readonly string[]).includes(v);
}

function bearerKey(req: FastifyRequest): string | undefined {
  const authz = req.headers.authorization;
  if (req.authMethod !== 'bearer' || !authz) return undefined;
  const token = authz.replace(/^Bearer\s+/i, '').trim();
  return `_CONFIRM_${createHash('sha256').update(token).digest('hex')}`;
}

async function readConfirm(req: FastifyRequest): Promise<ConfirmState | undefined> {
  if (req.session) {
    const { confirm_level: level, confirm_time: time } = req.session.data;
    return level !== undefined && time !== undefined ? { level, time } : undefined;
  }
  const key = bearerKey(req);
  return key ? req.server.deps.cache.get<ConfirmState>(key) : undefined;
}

export async function recordConfirm(req: FastifyRequest, type: ConfirmType): Promise<void> {
  const state: ConfirmState = { level: CONFIRM_LEVEL[type], time: Math.floor(Date.now() / 1000) };
  if (req.session) {
    await req.server.deps.sessions.update(req.session, { confirm_level: state.level, confirm_time: state.time });
    return;
  }
  const key = bearerKey(req);
  if (key)
    await req.server.deps.cache.set(
      key,
      state,
      Math.max(CONFIRM_TTL_SECONDS, Number(await req.server.deps.settings.get('SECURITY_MFA_VERIFY_TTL'))),
    );
}

/**
 * Guard for actions that reveal or change secrets: unless the caller confirmed at `type`'s level
 * or above recently enough, throws the contract's 400 `{"code": type, "detail": ...}` that makes the
 * console open its re-verification dialog. Off when SECURITY_VIEW_AUTH_NEED_MFA is false.
 */
export async function requireConfirm(req: FastifyRequest, type: ConfirmType): Promise<void> {
  const settings = req.server.deps.settings;
  if (!(await settings.get('SECURITY_VIEW_AUTH_NEED_MFA'))) return;
  const ttl = type === 'mfa' ? Number(await settings.get('SECURITY_MFA_VERIFY_TTL')) : CONFIRM_TTL_SECONDS;
  const state = await readConfirm(req);
  const now = Math.floor(Date.now() / 1000);
  if (state && state.level >= CONFIRM_LEVEL[type] && state.time >= now - ttl) return;
  throw new ApiError(400, { code: type, detail: ta(req.lang, 'confirm_required') });
}
