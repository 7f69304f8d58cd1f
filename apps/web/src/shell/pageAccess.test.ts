import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import type { PublicSettings, ResolvedRouteMeta } from '@gatehouse/contract';
import { ROUTER_VIEWS } from '../app/viewRoutes.ts';
import type { PreparedRoute } from '../lib/routeTypes.ts';
import { pageAccess } from './useShellContext.ts';

/** The console's one guard, over the real route tree: who may open a page is its routes' metadata. */
function access(path: string, perms: string[], licenseValid = true) {
  const matches = matchRoutes([{ path: '/', children: ROUTER_VIEWS }] as never, path) ?? [];
  const metas = matches
    .map((m) => (m.route as PreparedRoute).handle?.resolved)
    .filter((h): h is ResolvedRouteMeta<PublicSettings> => Boolean(h));
  expect(metas.length).toBeGreaterThan(0);
  return pageAccess(metas, { perms, settings: null, licenseValid });
}

describe('page access from route metadata', () => {
  it('needs rbac.view_console for the dashboard', () => {
    expect(access('/console/dashboard', ['rbac.view_console'])).toBe('ok');
    expect(access('/console/dashboard', ['users.view_user'])).toBe('forbidden');
  });

  it('asks each resource page for its own verb, below the view permission of its list', () => {
    expect(access('/console/users/users/', ['users.view_user'])).toBe('ok');
    expect(access('/console/users/users/create', ['users.view_user'])).toBe('forbidden');
    expect(access('/console/users/users/create', ['users.view_user', 'users.add_user'])).toBe('ok');
    expect(access('/console/users/users/x1/update', ['users.view_user', 'users.add_user'])).toBe('forbidden');
    expect(access('/console/users/users/x1/update', ['users.view_user', 'users.change_user'])).toBe('ok');
    expect(access('/console/users/groups/', ['users.view_user'])).toBe('forbidden');
    expect(access('/console/users/groups/', ['users.view_usergroup'])).toBe('ok');
  });

  it('guards the asset category forms and the gateway forms by their own permissions', () => {
    expect(access('/console/assets/hosts/create', ['assets.view_asset'])).toBe('forbidden');
    expect(access('/console/assets/hosts/create', ['assets.view_asset', 'assets.add_asset'])).toBe('ok');
    expect(access('/console/assets/databases/a1/update', ['assets.view_asset', 'assets.add_asset'])).toBe('forbidden');
    expect(access('/console/assets/databases/a1/update', ['assets.view_asset', 'assets.change_asset'])).toBe('ok');
    expect(access('/console/assets/gateways/create', ['assets.view_gateway', 'assets.add_asset'])).toBe('forbidden');
    expect(access('/console/assets/gateways/create', ['assets.view_gateway', 'assets.add_gateway'])).toBe('ok');
    expect(access('/console/assets/assets/', ['assets.view_asset'])).toBe('ok');
    expect(access('/console/assets/assets/a1', ['users.view_user'])).toBe('forbidden');
  });

  it('lets either role scope open the roles pages, and only with a licence', () => {
    expect(access('/console/users/roles/', ['rbac.view_orgrole'])).toBe('ok');
    expect(access('/console/users/roles/', ['rbac.view_systemrole'])).toBe('ok');
    expect(access('/console/users/roles/create', ['rbac.view_orgrole'])).toBe('forbidden');
    expect(access('/console/users/roles/create', ['rbac.view_systemrole', 'rbac.add_systemrole'])).toBe('ok');
    expect(access('/console/users/roles/', ['rbac.view_orgrole'], false)).toBe('notFound');
  });

  it('opens the profile to everyone and the settings to holders of settings.view_setting', () => {
    expect(access('/profile/info', [])).toBe('ok');
    expect(access('/settings/license', ['settings.view_setting'])).toBe('ok');
    expect(access('/settings/license', ['users.view_user'])).toBe('forbidden');
  });
});
