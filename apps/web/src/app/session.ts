import {
  ACTIVITY_TIMER_MS,
  HEARTBEAT_INTERVAL_MS,
  LOGIN_PATH,
  LOGOUT_PATH,
  SESSION_EXPIRE_CLOSE_COOKIE_MS,
  SESSION_EXPIRE_COOKIE,
} from '@gatehouse/contract';
import { getCookie, setCookie } from '../lib/cookies.ts';
import { http, httpContext } from '../lib/http.ts';
import { PROFILE_URL } from '../lib/httpErrors.ts';

/** Session rules of the console. */

/** Thrown to stop the startup sequence while the browser leaves for another page. */
export class Leaving extends Error {
  constructor(readonly target: string) {
    super(`leaving for ${target}`);
    this.name = 'Leaving';
  }
}

function here(): string {
  return window.location.pathname + window.location.search;
}

export function goToLogin(delayMs = 0): never {
  const target = `${LOGIN_PATH}?next=${encodeURIComponent(here())}`;
  window.setTimeout(() => window.location.assign(target), delayMs);
  throw new Leaving(target);
}

/** Ends the server session, which then shows the login page. */
export function logout(): never {
  const target = `${LOGOUT_PATH}?next=${encodeURIComponent(here())}`;
  window.location.assign(target);
  throw new Leaving(target);
}

let heartbeat: number | undefined;

/**
 * `jms_session_expire` must exist, else log out. A heartbeat every 10 s checks that it still does;
 * with `close` it also keeps the cookie alive for 2 minutes at a time, so the session ends soon
 * after the browser closes; with `age` the cookie expires by its own age.
 */
export function checkSessionCookie(): void {
  const value = getCookie(SESSION_EXPIRE_COOKIE);
  if (!value) logout();
  if (heartbeat !== undefined) return;
  const beat = () => {
    const now = getCookie(SESSION_EXPIRE_COOKIE);
    if (!now) {
      window.clearInterval(heartbeat);
      heartbeat = undefined;
      try {
        logout();
      } catch {
        /* navigating away */
      }
      return;
    }
    if (now === 'close') setCookie(SESSION_EXPIRE_COOKIE, 'close', { maxAge: SESSION_EXPIRE_CLOSE_COOKIE_MS / 1000 });
  };
  beat();
  heartbeat = window.setInterval(beat, HEARTBEAT_INTERVAL_MS);
}

const isProfileUrl = (url: string) => new URL(url, window.location.origin).pathname === PROFILE_URL;

let activity: number | undefined;

/**
 * Each successful response (except the profile's own) restarts a 30-second timer that then asks
 * for the profile, which keeps the server session alive while the console is in use.
 */
export function startActivityTimer(): void {
  httpContext.onResponse = (url) => {
    if (isProfileUrl(url)) return;
    window.clearTimeout(activity);
    activity = window.setTimeout(() => {
      activity = undefined;
      http.get(PROFILE_URL).catch(() => undefined);
    }, ACTIVITY_TIMER_MS);
  };
}
