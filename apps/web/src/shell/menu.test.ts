import { describe, expect, it } from 'vitest';
import type { PublicSettings } from '@gatehouse/contract';
import { prepareRoutes } from '../app/routeRegistry.ts';
import type { AppRoute } from '../lib/routeTypes.ts';
import { buildMenu, initialOpenKeys, nextOpenKeys, selectedMenuKey } from './menu.ts';

const crud = (list: string): AppRoute[] => [
  { index: true, handle: { title: `route.${list}` } },
  { path: 'create', handle: { title: 'route.Create' } },
  { path: ':id/update', handle: { title: 'route.Update' } },
  { path: ':id', handle: { title: 'route.Detail' } },
];

const consoleView: AppRoute = {
  path: 'console',
  handle: { title: 'route.Console' },
  children: [
    { index: true },
    { path: 'dashboard', handle: { title: 'route.Dashboard', permissions: ['rbac.view_console'] } },
    {
      path: 'users',
      handle: { title: 'route.Users' },
      children: [
        { index: true },
        { path: 'users/', handle: { title: 'route.UserList' }, children: crud('UserList') },
        {
          path: 'groups/',
          handle: { title: 'route.UserGroupList', resource: 'usergroup' },
          children: crud('UserGroupList'),
        },
      ],
    },
    { path: 'assets/assets/', handle: { title: 'route.AssetList' } },
    { path: 'assets/platforms/', handle: { title: 'route.PlatformList' } },
    {
      path: 'perms/roles/',
      handle: { title: 'route.RoleList', licenseRequired: true, permissions: ['rbac.view_orgrole'] },
    },
  ],
};

const [view] = prepareRoutes([consoleView]);
const settings = {} as PublicSettings;
const menuFor = (perms: string[], licenseValid = false) => buildMenu(view!, { perms, settings, licenseValid });

describe('the sidebar menu', () => {
  it('shows the permitted routes, grouped by app, without crud pages', () => {
    const menu = menuFor([
      'rbac.view_console',
      'users.view_user',
      'users.view_usergroup',
      'assets.view_asset',
      'assets.view_platform',
    ]);
    expect(menu.map((e) => e.key)).toEqual(['/console/dashboard', '/console/users', '/console/assets']);
    expect(menu[1]!.children!.map((e) => [e.key, e.path, e.title])).toEqual([
      ['/console/users/users', '/console/users/users/', 'route.UserList'],
      ['/console/users/groups', '/console/users/groups/', 'route.UserGroupList'],
    ]);
    expect(menu[2]).toMatchObject({ title: 'route.Assets', fallbackTitle: 'Assets' });
    expect(menu[2]!.children!.map((e) => e.title)).toEqual(['route.AssetList', 'route.PlatformList']);
  });

  it('leaves out a group whose entries are all hidden, and licensed routes without a licence', () => {
    const menu = menuFor(['rbac.view_console', 'rbac.view_orgrole']);
    expect(menu.map((e) => e.key)).toEqual(['/console/dashboard']);
    expect(menuFor(['rbac.view_orgrole'], true).map((e) => e.key)).toEqual(['/console/perms']);
  });

  it('keeps a group when only one of its entries is permitted', () => {
    const menu = menuFor(['users.view_usergroup']);
    expect(menu.map((e) => e.key)).toEqual(['/console/users']);
    expect(menu[0]!.children!.map((e) => e.key)).toEqual(['/console/users/groups']);
  });
});

describe('the selected and open menu entries', () => {
  const menu = menuFor(['rbac.view_console', 'users.view_user', 'users.view_usergroup']);

  it('light up the entry a page belongs to', () => {
    expect(selectedMenuKey(menu, '/console/dashboard')).toBe('/console/dashboard');
    expect(selectedMenuKey(menu, '/console/users/groups/0000/update')).toBe('/console/users/groups');
    expect(selectedMenuKey(menu, '/console/users/users/', '/console/users/groups/')).toBe('/console/users/groups');
    expect(selectedMenuKey(menu, '/404')).toBeUndefined();
  });

  it('open the group of the selected entry and the default menus, one at a time afterwards', () => {
    expect(initialOpenKeys(menu, '/console/users/groups')).toEqual(['/console/users']);
    const audit = [
      { key: '/audit/sessions', path: '/audit/sessions', title: 't', children: [] },
      { key: '/audit/logs', path: '/audit/logs', title: 't', children: [] },
    ];
    expect(initialOpenKeys(audit, undefined)).toEqual(['/audit/sessions', '/audit/logs']);
    expect(
      nextOpenKeys(['/audit/sessions', '/audit/logs'], ['/audit/sessions', '/audit/logs', '/audit/other']),
    ).toEqual(['/audit/other']);
    expect(nextOpenKeys(['/audit/sessions', '/audit/logs'], ['/audit/logs'])).toEqual(['/audit/logs']);
  });
});

describe('external menu entries', () => {
  const [bench] = prepareRoutes([
    {
      path: 'workbench',
      handle: { title: 'route.Workbench' },
      children: [
        { path: 'home', handle: { title: 'workbench.route.home', permissions: [] } },
        {
          path: 'web-terminal',
          handle: {
            title: 'workbench.route.webTerminal',
            externalUrl: '/luna/',
            permissions: ['rbac.view_webterminal'],
          },
        },
      ],
    },
  ]);

  it('carry their address, follow their permission, and are never the selected entry', () => {
    const menu = buildMenu(bench!, { perms: ['rbac.view_webterminal'], settings, licenseValid: false });
    expect(menu.map((e) => [e.key, e.externalUrl])).toEqual([
      ['/workbench/home', undefined],
      ['/workbench/web-terminal', '/luna/'],
    ]);
    expect(selectedMenuKey(menu, '/workbench/web-terminal')).toBeUndefined();
    expect(buildMenu(bench!, { perms: [], settings, licenseValid: false }).map((e) => e.key)).toEqual([
      '/workbench/home',
    ]);
  });
});
