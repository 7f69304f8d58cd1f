import { HEARTBEAT_INTERVAL_MS, LOGIN_PATH, LOGOUT_PATH, SESSION_EXPIRE_CLOSE_COOKIE_MS, SESSION_EXPIRE_COOKIE } from '@gatehouse/contract';
import { getCookie, setCookie } from '../lib/cookies.ts';

/** Session rules of spec 01 §4 "Session". */

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
 * `jms_session_expire` must exist, else log out. With `close`, a heartbeat keeps the cookie alive
 * for 2 minutes at a time, so the session ends soon after the browser closes.
 */
export function checkSessionCookie(): void {
  const value = getCookie(SESSION_EXPIRE_COOKIE);
  if (!value) logout();
  if (value === 'close' && heartbeat === undefined) {
    const refresh = () => {
      if (!getCookie(SESSION_EXPIRE_COOKIE)) {
        window.clearInterval(heartbeat);
        heartbeat = undefined;
        try {
          logout();
        } catch {
          /* navigating away */
        }
        return;
      }
      setCookie(SESSION_EXPIRE_COOKIE, 'close', { maxAge: SESSION_EXPIRE_CLOSE_COOKIE_MS / 1000 });
    };
    refresh();
    heartbeat = window.setInterval(refresh, HEARTBEAT_INTERVAL_MS);
  }
}
