import type { SettingsStore } from '../modules/settings/store.ts';
import type { LoadedSession } from './session.ts';

/**
 * Session limits of the security settings (api-contract §4.18 `security_session`): a session ends
 * `SECURITY_MAX_SESSION_TIME` hours after login and after `SECURITY_MAX_IDLE_TIME` minutes without
 * a request. Activity is recorded at most once a minute (SessionStore.touch), so idleness is
 * measured to the minute.
 */
export async function sessionOverLimits(
  settings: SettingsStore,
  session: LoadedSession,
  now = Date.now(),
): Promise<boolean> {
  const maxHours = Number(await settings.get('SECURITY_MAX_SESSION_TIME'));
  const idleMinutes = Number(await settings.get('SECURITY_MAX_IDLE_TIME'));
  const loginAt = Date.parse(session.data.login_time);
  if (maxHours > 0 && Number.isFinite(loginAt) && now - loginAt >= maxHours * 3600_000) return true;
  if (idleMinutes > 0 && now - session.lastActive.getTime() >= idleMinutes * 60_000) return true;
  return false;
}
