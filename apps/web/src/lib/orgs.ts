import { DEFAULT_ORG_ID, ORG_COOKIE, ROOT_ORG_ID, SYSTEM_ORG_ID, type OrgRef, type Profile } from '@gatehouse/contract';
import { setCookie } from './cookies.ts';
import { httpContext } from './http.ts';

/** Organisation rules of the console. */

export type ViewName = 'console' | 'audit' | 'workbench' | 'tickets' | 'settings' | 'profile' | '';

const storageKey = (username: string) => `jms_current_org_${username}`;
const preKey = (username: string) => `PRE_ORG_${username}`;

/** The orgs a view works in: console, tickets and settings use console orgs. */
export function usingOrgs(profile: Profile, view: ViewName): OrgRef[] {
  if (view === 'audit') return profile.audit_orgs;
  if (view === 'workbench') return profile.workbench_orgs;
  return profile.console_orgs.length ? profile.console_orgs : profile.workbench_orgs;
}

/** The org flagged is_default, else the first that is neither root nor the special …0004. */
export function defaultOrg(orgs: OrgRef[]): OrgRef | undefined {
  return orgs.find((o) => o.is_default) ?? orgs.find((o) => o.id !== ROOT_ORG_ID && o.id !== SYSTEM_ORG_ID);
}

export function storedOrg(username: string): StoredOrg | undefined {
  try {
    const raw = localStorage.getItem(storageKey(username));
    return raw ? (JSON.parse(raw) as StoredOrg) : undefined;
  } catch {
    return undefined;
  }
}

/** An org the console entered by itself (the global org of the roles pages), not one the user chose. */
export type StoredOrg = OrgRef & { autoEnter?: number };

export function storeOrg(username: string, org: StoredOrg, previous?: OrgRef): void {
  if (previous) localStorage.setItem(preKey(username), JSON.stringify(previous));
  localStorage.setItem(storageKey(username), JSON.stringify(org));
  setCookie(ORG_COOKIE, org.id, { maxAge: 365 * 86400 });
  httpContext.currentOrgId = org.id;
}

export function previousOrg(username: string): OrgRef | undefined {
  try {
    const raw = localStorage.getItem(preKey(username));
    return raw ? (JSON.parse(raw) as OrgRef) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The org to work in: the remembered one when the view permits it; the system-setting org, or a
 * global org the console entered by itself, gives way to the previous org; otherwise the default
 * org of the view.
 */
export function chooseOrg(profile: Profile, view: ViewName, current: StoredOrg | undefined): OrgRef | undefined {
  const orgs = usingOrgs(profile, view);
  if (current?.id === SYSTEM_ORG_ID || current?.autoEnter) {
    const pre = previousOrg(profile.username);
    if (pre && orgs.some((o) => o.id === pre.id)) return pre;
  }
  if (current && !current.autoEnter && orgs.some((o) => o.id === current.id))
    return orgs.find((o) => o.id === current.id);
  return defaultOrg(orgs) ?? orgs.find((o) => o.id === DEFAULT_ORG_ID);
}

/**
 * Enters the global org for a page that works across organisations (
 * `globalOrg.vue`): the org in use is remembered as the previous one. Returns how to leave (back to
 * that org), or nothing when the user has no global org or is in it already.
 */
export function enterGlobalOrg(
  profile: Profile,
  current: OrgRef | null,
): { root: OrgRef; leave(): OrgRef | undefined } | undefined {
  const root = profile.console_orgs.find((o) => o.id === ROOT_ORG_ID);
  if (!root || current?.id === ROOT_ORG_ID) return undefined;
  storeOrg(profile.username, { ...root, autoEnter: Date.now() }, current ?? undefined);
  return {
    root,
    leave() {
      const back = previousOrg(profile.username) ?? current ?? undefined;
      if (back) storeOrg(profile.username, back);
      return back;
    },
  };
}
