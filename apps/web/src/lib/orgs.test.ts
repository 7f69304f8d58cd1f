import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ORG_COOKIE, ROOT_ORG_ID, SYSTEM_ORG_ID, type OrgRef, type Profile } from '@gatehouse/contract';
import { getCookie } from './cookies.ts';
import { httpContext } from './http.ts';
import { chooseOrg, defaultOrg, enterGlobalOrg, previousOrg, storedOrg, storeOrg, usingOrgs } from './orgs.ts';

const org = (id: string, name: string, extra: Partial<OrgRef> = {}): OrgRef => ({
  id,
  name,
  is_default: false,
  is_root: false,
  ...extra,
});
const ROOT = org(ROOT_ORG_ID, 'Global', { is_root: true });
const SYSTEM = org(SYSTEM_ORG_ID, 'SystemSetting');
const DEFAULT = org(DEFAULT_ORG_ID, 'Default', { is_default: true });
const B = org('0b0b0b0b-0000-4000-8000-000000000001', 'B');
const C = org('0c0c0c0c-0000-4000-8000-000000000001', 'C');

const profile = (p: Partial<Profile>): Profile =>
  ({ username: 'alice', console_orgs: [], audit_orgs: [], workbench_orgs: [], ...p }) as Profile;

afterEach(() => localStorage.clear());

describe('the default-org rule (spec 01 §4)', () => {
  it('takes the org flagged is_default', () => {
    expect(defaultOrg([ROOT, B, DEFAULT])).toEqual(DEFAULT);
  });

  it('else the first org that is neither the global org nor the special …0004 org', () => {
    expect(defaultOrg([ROOT, SYSTEM, C, B])).toEqual(C);
    expect(defaultOrg([SYSTEM, ROOT])).toBeUndefined();
  });
});

describe('choosing the org to work in', () => {
  it('keeps a remembered org the view permits, else falls back to the default org', () => {
    const p = profile({ console_orgs: [ROOT, DEFAULT, B] });
    expect(chooseOrg(p, 'console', B)).toEqual(B);
    expect(chooseOrg(p, 'console', C)).toEqual(DEFAULT);
    expect(chooseOrg(p, 'console', undefined)).toEqual(DEFAULT);
  });

  it('uses the orgs of the view: an auditor of B works in B in the audit view', () => {
    const p = profile({ audit_orgs: [B], workbench_orgs: [DEFAULT] });
    expect(usingOrgs(p, 'audit')).toEqual([B]);
    expect(chooseOrg(p, 'audit', DEFAULT)).toEqual(B);
    expect(chooseOrg(p, 'console', undefined)).toEqual(DEFAULT);
  });

  it('leaves the system-setting org for the remembered previous org', () => {
    const p = profile({ console_orgs: [DEFAULT, B, SYSTEM] });
    storeOrg('alice', SYSTEM, B);
    expect(previousOrg('alice')).toEqual(B);
    expect(chooseOrg(p, 'console', SYSTEM)).toEqual(B);
  });
});

describe('entering the global org for the roles pages (console-reference §1.6)', () => {
  it('switches to the global org, remembers the org in use, and restores it on leaving', () => {
    const p = profile({ console_orgs: [ROOT, DEFAULT, B] });
    storeOrg('alice', B);
    const entered = enterGlobalOrg(p, B)!;
    expect(entered.root).toEqual(ROOT);
    expect(storedOrg('alice')).toMatchObject(ROOT);
    expect(httpContext.currentOrgId).toBe(ROOT_ORG_ID);
    expect(previousOrg('alice')).toEqual(B);
    expect(entered.leave()).toEqual(B);
    expect(storedOrg('alice')).toEqual(B);
    expect(getCookie(ORG_COOKIE)).toBe(B.id);
  });

  it('does nothing for a user without the global org, or already in it', () => {
    expect(enterGlobalOrg(profile({ console_orgs: [DEFAULT, B] }), B)).toBeUndefined();
    expect(enterGlobalOrg(profile({ console_orgs: [ROOT, B] }), ROOT)).toBeUndefined();
  });

  it('a global org entered by the console gives way to the previous org at the next start, one chosen by the user stays', () => {
    const p = profile({ console_orgs: [ROOT, DEFAULT, B] });
    enterGlobalOrg(p, B);
    expect(chooseOrg(p, 'console', storedOrg('alice'))).toEqual(B);
    storeOrg('alice', ROOT, B);
    expect(chooseOrg(p, 'console', storedOrg('alice'))).toEqual(ROOT);
  });
});

describe('storing the org', () => {
  it('writes jms_current_org_<user>, PRE_ORG_<user>, the X-JMS-ORG cookie and the request header value', () => {
    storeOrg('alice', B, DEFAULT);
    expect(storedOrg('alice')).toEqual(B);
    expect(JSON.parse(localStorage.getItem('jms_current_org_alice')!)).toEqual(B);
    expect(JSON.parse(localStorage.getItem('PRE_ORG_alice')!)).toEqual(DEFAULT);
    expect(getCookie(ORG_COOKIE)).toBe(B.id);
    expect(httpContext.currentOrgId).toBe(B.id);
    expect(storedOrg('bob')).toBeUndefined();
  });
});
