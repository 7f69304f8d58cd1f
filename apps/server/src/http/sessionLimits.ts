import type { SessionSettings } from './identitySource.ts';
import type { LoadedSession } from './session.ts';

/**
 * Session limits of the security settings: a session ends `SECURITY_MAX_SESSION_TIME` hours after
 * login and after `SECURITY_MAX_IDLE_TIME` minutes without a request. Activity is recorded at most
 * once a minute (SessionStore.touch), so idleness is measured to the minute.
 */
export function sessionOverLimits(
  limits: Pick<SessionSettings, 'maxSessionHours' | 'maxIdleMinutes'>,
  session: LoadedSession,
  now = Date.now(),
): boolean {
  const { maxSessionHours, maxIdleMinutes } = limits;
  const loginAt = Date.parse(session.data.login_time);
  if (maxSessionHours > 0 && Number.isFinite(loginAt) && now - loginAt >= maxSessionHours * 3600_000) return true;
  if (maxIdleMinutes > 0 && now - session.lastActive.getTime() >= maxIdleMinutes * 60_000) return true;
  return false;
}
