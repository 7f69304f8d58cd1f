import { DEFAULT_ORG_ID, ORG_COOKIE, ROOT_ORG_ID, SYSTEM_ORG_ID, type OrgRef, type Profile } from '@gatehouse/contract';
import { setCookie } from '../lib/cookies.ts';
import { httpContext } from '../lib/http.ts';

/** Organisation rules of spec 01 §4 "Organisation". */

export type ViewName = 'console' | 'audit' | 'workbench' | 'tickets' | 'settings' | 'profile' | '';

const storageKey = (username: string) => `jms_current_org_${username}`;
const preKey = (username: string) => `PRE_ORG_${username}`;

/** The orgs a view works in: console, tickets and settings use console orgs (console-reference §1.3). */
export function usingOrgs(profile: Profile, view: ViewName): OrgRef[] {
  if (view === 'audit') return profile.audit_orgs;
  if (view === 'workbench') return profile.workbench_orgs;
  return profile.console_orgs.length ? profile.console_orgs : profile.workbench_orgs;
}

/** The org flagged is_default, else the first that is neither root nor the special …0004. */
export function defaultOrg(orgs: OrgRef[]): OrgRef | undefined {
  return orgs.find((o) => o.is_default) ?? orgs.find((o) => o.id !== ROOT_ORG_ID && o.id !== SYSTEM_ORG_ID);
}

export function storedOrg(username: string): OrgRef | undefined {
  try {
    const raw = localStorage.getItem(storageKey(username));
    return raw ? (JSON.parse(raw) as OrgRef) : undefined;
  } catch {
    return undefined;
  }
}

export function storeOrg(username: string, org: OrgRef, previous?: OrgRef): void {
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
 * The org to work in: the remembered one when the view permits it; the system-setting org gives
 * way to the previous org; otherwise the default org of the view.
 */
export function chooseOrg(profile: Profile, view: ViewName, current: OrgRef | undefined): OrgRef | undefined {
  const orgs = usingOrgs(profile, view);
  if (current?.id === SYSTEM_ORG_ID) {
    const pre = previousOrg(profile.username);
    if (pre && orgs.some((o) => o.id === pre.id)) return pre;
  }
  if (current && orgs.some((o) => o.id === current.id)) return orgs.find((o) => o.id === current.id);
  return defaultOrg(orgs) ?? orgs.find((o) => o.id === DEFAULT_ORG_ID);
}
