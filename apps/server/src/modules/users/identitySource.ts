import type { IdentitySource } from '../../http/identitySource.ts';
import type { SettingsStore } from '../settings/store.ts';
import { findActiveUser } from '../authentication/userLookup.ts';
import { rememberLanguage } from '../notifications/userLanguage.ts';

/** What `http/identify.ts` needs to identify a request: users and the session settings. */
export function usersIdentitySource(settings: SettingsStore): IdentitySource {
  return {
    findActiveUser,
    rememberLanguage,
    async sessionSettings() {
      return {
        maxSessionHours: Number(await settings.get('SECURITY_MAX_SESSION_TIME')),
        maxIdleMinutes: Number(await settings.get('SECURITY_MAX_IDLE_TIME')),
        cookieAgeSeconds: await settings.sessionAgeSeconds(),
      };
    },
    globalOrgName: () => settings.globalOrgName(),
  };
}
