import { describe, expect, it } from 'vitest';
import type { PublicSettings } from '@gatehouse/contract';
import { accountEntries, helpEntries, navbarGates, webTerminalUrl, type GateContext } from './navbarGates.ts';
import { orgSelectorState, orgSwitchTarget, type OrgSelectorInput } from './orgSelector.ts';

const settings = (s: Partial<PublicSettings> = {}) =>
  ({
    XPACK_ENABLED: false,
    XPACK_LICENSE_IS_VALID: false,
    TICKETS_ENABLED: true,
    AUTH_TEMP_TOKEN: false,
    HELP_DOCUMENT_URL: 'https://docs',
    HELP_SUPPORT_URL: 'https://support',
    ...s,
  }) as PublicSettings;
const licensed = settings({ XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true });
const everyRoute = () => true;
const noRoute = () => false;
const ctx = (perms: string[], s = settings(), hasRoute: (path: string) => boolean = everyRoute): GateContext => ({
  perms,
  settings: s,
  hasRoute,
});

describe('navbar gates', () => {
  it('show the web terminal with rbac.view_webterminal, opening /luna/ with a timestamp', () => {
    expect(navbarGates(ctx(['rbac.view_webterminal'])).webTerminal).toBe(true);
    expect(navbarGates(ctx([])).webTerminal).toBe(false);
    expect(webTerminalUrl(1700000000000)).toBe('/luna/?_=1700000000000');
  });

  it('show tickets only with tickets.view_ticket, a valid licence and TICKETS_ENABLED', () => {
    expect(navbarGates(ctx(['tickets.view_ticket'], licensed)).tickets).toBe(true);
    expect(navbarGates(ctx(['tickets.view_ticket'], settings())).tickets).toBe(false);
    expect(navbarGates(ctx(['tickets.view_ticket'], { ...licensed, TICKETS_ENABLED: false })).tickets).toBe(false);
    expect(navbarGates(ctx([], licensed)).tickets).toBe(false);
    expect(navbarGates(ctx(['tickets.view_ticket'], licensed, noRoute)).tickets).toBe(false);
  });

  it('show the settings gear with settings.view_setting once the settings pages are built', () => {
    expect(navbarGates(ctx(['settings.view_setting'])).settings).toBe(true);
    expect(navbarGates(ctx([])).settings).toBe(false);
    expect(navbarGates(ctx(['settings.view_setting'], settings(), noRoute)).settings).toBe(false);
  });
});

describe('the account menu', () => {
  const all = ['authentication.view_accesskey', 'authentication.view_temptoken', 'authentication.view_connectiontoken'];
  const ids = (c: GateContext) => accountEntries(c).map((e) => e.id);

  it('offers each entry with its gate, and Logout always', () => {
    expect(ids(ctx(all, settings({ AUTH_TEMP_TOKEN: true })))).toEqual([
      'profile',
      'apiKey',
      'tempPassword',
      'connectionToken',
      'logout',
    ]);
    expect(ids(ctx(all))).toEqual(['profile', 'apiKey', 'connectionToken', 'logout']);
    expect(ids(ctx([], settings({ AUTH_TEMP_TOKEN: true })))).toEqual(['profile', 'logout']);
  });

  it('leaves out pages that are not built yet', () => {
    expect(ids(ctx(all, settings({ AUTH_TEMP_TOKEN: true }), noRoute))).toEqual(['logout']);
    expect(ids(ctx(all, settings(), (p) => p === '/profile/key'))).toEqual(['apiKey', 'logout']);
    expect(accountEntries(ctx([], settings(), noRoute))[0]).toEqual({
      id: 'logout',
      label: 'common.logout',
      to: '/core/auth/logout/',
    });
  });
});

describe('the help menu', () => {
  it('offers Enterprise edition only without a valid licence, and Docs and Support when set', () => {
    expect(helpEntries(settings())).toEqual(['docs', 'support', 'enterprise', 'about']);
    expect(helpEntries(licensed)).toEqual(['docs', 'support', 'about']);
    expect(helpEntries(settings({ HELP_DOCUMENT_URL: '', HELP_SUPPORT_URL: '' }))).toEqual(['enterprise', 'about']);
  });
});

describe('the organisation selector', () => {
  const input = (o: Partial<OrgSelectorInput> = {}): OrgSelectorInput => ({
    licenseValid: true,
    route: {},
    view: 'console',
    perms: ['orgs.add_organization', 'orgs.view_organization'],
    hasRoute: everyRoute,
    ...o,
  });

  it('shows only with a valid licence and when the route does not hide it', () => {
    expect(orgSelectorState(input()).visible).toBe(true);
    expect(orgSelectorState(input({ licenseValid: false })).visible).toBe(false);
    expect(orgSelectorState(input({ route: { showOrganization: false } })).visible).toBe(false);
  });

  it('is read-only where the route forbids changing the org', () => {
    const s = orgSelectorState(input({ route: { disableOrgsChange: true } }));
    expect(s).toMatchObject({ visible: true, readOnly: true, actions: [] });
  });

  it('offers create and list in the console view only, each disabled without its permission', () => {
    expect(orgSelectorState(input()).actions.map((a) => [a.id, a.to, a.disabled])).toEqual([
      ['create', '/settings/orgs/create', false],
      ['list', '/settings/orgs/', false],
    ]);
    expect(orgSelectorState(input({ view: 'audit' })).actions).toEqual([]);
    expect(orgSelectorState(input({ perms: ['orgs.view_organization'] })).actions.map((a) => a.disabled)).toEqual([
      true,
      false,
    ]);
    expect(orgSelectorState(input({ perms: [] })).actions.map((a) => a.disabled)).toEqual([true, true]);
    expect(orgSelectorState(input({ hasRoute: noRoute })).actions.map((a) => a.disabled)).toEqual([true, true]);
  });

  it('reloads the address without ids after a switch, and the root when that is not a page', () => {
    const id = '4a0c5a2e-1d7b-4f39-9a43-0c6fb3f5e3a1';
    const pages = new Set(['/console/users/users/', '/console/assets/assets/']);
    const hasRoute = (p: string) => pages.has(p);
    expect(orgSwitchTarget(`/console/users/users/${id}/`, '', (p) => p === '/console/users/users/')).toBe(
      '/console/users/users/',
    );
    expect(orgSwitchTarget('/console/assets/assets/', `?node=${id}&platform=12&limit=15&search=web`, hasRoute)).toBe(
      '/console/assets/assets/?platform=12&search=web',
    );
    expect(orgSwitchTarget(`/console/users/users/${id}/update`, '', hasRoute)).toBe('/');
  });
});
