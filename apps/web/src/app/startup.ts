import {
  DEFAULT_ORG_ID,
  ORG_COOKIE,
  SYSTEM_ORG_ID,
  type CategoryOut,
  type CurrentOrg,
  type Profile,
  type PublicOpenSettings,
  type PublicSettings,
} from '@gatehouse/contract';
import { getCookie } from '../lib/cookies.ts';
import { HttpError, http, httpContext } from '../lib/http.ts';
import type { AppState } from '../lib/appStore.ts';
import { checkSessionCookie, goToLogin, startActivityTimer } from './session.ts';
import { chooseOrg, storeOrg, storedOrg } from '../lib/orgs.ts';
import { checkView } from './views.ts';

export interface StartupEnv {
  /** Views that have routes built into this console. */
  builtViews: ReadonlySet<string>;
  /** Whether a path is routed (the first-login page comes with the profile area). */
  hasRoute(path: string): boolean;
}

export interface StartupResult {
  redirect?: string;
  /** The state to install once the gate has navigated. */
  state: Pick<AppState, 'publicSettings' | 'profile' | 'perms' | 'currentOrg' | 'categories'>;
}

async function fetchProfile(): Promise<Profile> {
  try {
    return await http.get<Profile>('/api/v1/users/profile/');
  } catch (e) {
    if (e instanceof HttpError && (e.status === 401 || e.status === 403)) goToLogin(100);
    throw e;
  }
}

function mayUseOrg(profile: Profile, orgId: string): boolean {
  if (orgId === DEFAULT_ORG_ID || orgId === SYSTEM_ORG_ID) return true;
  return [...profile.console_orgs, ...profile.audit_orgs, ...profile.workbench_orgs].some((o) => o.id === orgId);
}

/**
 * The startup sequence of the console, run once per app state: public settings, login check and
 * profile, full public settings, view check, org check, first-login redirect, asset categories.
 */
export async function runStartup(pathname: string, env: StartupEnv): Promise<StartupResult> {
  const open = await http.get<PublicOpenSettings>('/api/v1/settings/public/open/');
  httpContext.xpackEnabled = open.XPACK_ENABLED;

  checkSessionCookie();
  startActivityTimer();
  httpContext.currentOrgId = getCookie(ORG_COOKIE);
  let profile = await fetchProfile();
  // An org remembered from another account may be none of this one's: the server refuses it (403
  // org_not_member) everywhere but on the profile, so it is forgotten before the next requests.
  if (httpContext.currentOrgId && !mayUseOrg(profile, httpContext.currentOrgId)) httpContext.currentOrgId = undefined;
  // Signed in: what is left does not depend on each other, so it goes in one round trip.
  const [settings, current, categories] = await Promise.all([
    http.get<PublicSettings>('/api/v1/settings/public/'),
    http.get<CurrentOrg>('/api/v1/orgs/orgs/current/'),
    http.get<CategoryOut[]>('/api/v1/assets/categories/'),
  ]);
  httpContext.xpackEnabled = settings.XPACK_ENABLED;

  const checked = checkView(pathname, profile, settings, env.builtViews);
  let redirect = checked.redirect;
  const view = checked.view;

  const remembered = storedOrg(profile.username) ?? current;
  const chosen = chooseOrg(profile, view, remembered);
  if (chosen) {
    storeOrg(profile.username, chosen);
    if (chosen.id !== current.id) profile = await fetchProfile();
  }

  if (profile.is_first_login && env.hasRoute('/profile/improvement')) redirect = '/profile/improvement';

  const state = {
    publicSettings: settings,
    profile,
    perms: new Set(profile.perms),
    currentOrg: chosen ?? null,
    categories,
  };
  return redirect ? { redirect, state } : { state };
}

let early: { pathname: string; result: Promise<StartupResult> } | undefined;

/**
 * Starts the sequence as the console's script starts (`main.tsx`), while the language loads and
 * React renders its first frame; the gate's first run takes it (`takeStartup`) instead of starting
 * its own after that render.
 */
export function startStartupEarly(pathname: string, env: StartupEnv): void {
  const result = runStartup(pathname, env);
  result.catch(() => undefined); // the gate sees the failure when it takes the result
  early = { pathname, result };
}

/** The sequence started early for this address, else a new run. */
export function takeStartup(pathname: string, env: StartupEnv): Promise<StartupResult> {
  const started = early;
  early = undefined;
  return started?.pathname === pathname ? started.result : runStartup(pathname, env);
}
