import { beforeEach, describe, expect, it } from 'vitest';
import type { OrgRef, Profile, PublicSettings } from '@gatehouse/contract';
import { checkView, isViewPermitted, preferredView, switcherViews, usableViews, viewOfPath } from './views.ts';

const org: OrgRef = { id: '00000000-0000-0000-0000-000000000002', name: 'DEFAULT', is_default: true, is_root: false };

function profile(overrides: Partial<Profile> = {}): Profile {
  return { perms: [], console_orgs: [org], audit_orgs: [org], workbench_orgs: [org], ...overrides } as Profile;
}
const licensed = { XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true } as PublicSettings;
const community = { XPACK_ENABLED: false, XPACK_LICENSE_IS_VALID: true } as PublicSettings;
const allBuilt = new Set(['console', 'audit', 'workbench', 'tickets', 'settings']);

beforeEach(() => localStorage.clear());

describe('which views a user is offered', () => {
  it('console and audit need organisations for them, workbench is always offered', () => {
    const p = profile({ console_orgs: [], audit_orgs: [] });
    expect(isViewPermitted('console', p, community)).toBe(false);
    expect(isViewPermitted('audit', p, community)).toBe(false);
    expect(isViewPermitted('workbench', p, community)).toBe(true);
    expect(isViewPermitted('console', profile(), community)).toBe(true);
  });

  it('tickets need a valid licence (paid extension enabled) and tickets.view_ticket; settings need settings.view_setting', () => {
    const p = profile({ perms: ['tickets.view_ticket', 'settings.view_setting'] });
    expect(isViewPermitted('tickets', p, licensed)).toBe(true);
    expect(isViewPermitted('tickets', p, community)).toBe(false);
    expect(isViewPermitted('tickets', profile(), licensed)).toBe(false);
    expect(isViewPermitted('settings', p, community)).toBe(true);
    expect(isViewPermitted('settings', profile(), community)).toBe(false);
  });

  it('are only the built ones', () => {
    expect(usableViews(profile(), community, new Set(['console']))).toEqual(['console']);
    expect(usableViews(profile(), community, allBuilt)).toEqual(['console', 'audit', 'workbench']);
  });

  it('in the switcher are the marked, permitted views', () => {
    expect(switcherViews(['console', 'settings'], profile({ perms: ['settings.view_setting'] }), community)).toEqual([
      'console',
      'settings',
    ]);
    expect(switcherViews(['console', 'settings'], profile({ console_orgs: [] }), community)).toEqual([]);
  });
});

describe('the preferred view', () => {
  it('is PreView when it is usable, else the first usable view', () => {
    expect(preferredView(profile(), community, allBuilt)).toBe('console');
    localStorage.setItem('PreView', 'workbench');
    expect(preferredView(profile(), community, allBuilt)).toBe('workbench');
    localStorage.setItem('PreView', 'settings');
    expect(preferredView(profile(), community, allBuilt)).toBe('console');
    expect(preferredView(profile({ console_orgs: [] }), community, new Set(['console']))).toBeUndefined();
  });
});

describe('the startup view check', () => {
  it('takes the view from the first path segment', () => {
    expect(viewOfPath('/console/users/users/')).toBe('console');
    expect(viewOfPath('/404')).toBe('');
    expect(checkView('/console/dashboard', profile(), community, allBuilt)).toEqual({ view: 'console' });
  });

  it('sends the root to the stored view, or leaves it on the overview when no view is usable', () => {
    localStorage.setItem('PreView', 'audit');
    expect(checkView('/', profile(), community, allBuilt)).toEqual({ view: 'audit', redirect: '/audit' });
    expect(checkView('/', profile({ console_orgs: [] }), community, new Set(['console']))).toEqual({ view: '' });
  });

  it('sends a view the user may not use, or that is not built, to the first permitted one', () => {
    const workbenchOnly = profile({ console_orgs: [], audit_orgs: [] });
    expect(checkView('/console/dashboard', workbenchOnly, community, allBuilt)).toEqual({
      view: 'workbench',
      redirect: '/workbench',
    });
    expect(checkView('/audit/dashboard', profile(), community, new Set(['console']))).toEqual({
      view: 'console',
      redirect: '/console',
    });
    expect(checkView('/console/dashboard', workbenchOnly, community, new Set(['console']))).toEqual({
      view: '',
      redirect: '/',
    });
  });

  it('leaves paths outside the views alone', () => {
    expect(checkView('/404', profile(), community, allBuilt)).toEqual({ view: 'console' });
    expect(checkView('/profile/info', profile(), community, allBuilt)).toEqual({ view: 'profile' });
  });
});
