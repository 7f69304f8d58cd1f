import { describe, expect, it } from 'vitest';
import {
  cloneQuery,
  cloneSourceId,
  joinRoutePath,
  licenseIsValid,
  permissionFor,
  relatedRouteName,
  resolveRouteMeta,
  resourceNameOfPath,
  routeActionOfPath,
  routeHiddenReason,
  routeTypeOfLevel,
  visibleRoutes,
  type MetaNode,
  type VisibilityContext,
} from './routeMeta.ts';

interface Settings {
  SECURITY_COMMAND_EXECUTION: boolean;
}

const ctx = (perms: string[], opts: Partial<VisibilityContext<Settings>> = {}): VisibilityContext<Settings> => ({
  perms,
  settings: { SECURITY_COMMAND_EXECUTION: false },
  licenseValid: false,
  ...opts,
});

describe('route type from path depth', () => {
  it('is view, app, resource, then crud for depth 4 and deeper', () => {
    expect([1, 2, 3, 4, 5].map(routeTypeOfLevel)).toEqual(['view', 'app', 'resource', 'crud', 'crud']);
    expect(resolveRouteMeta('/console').type).toBe('view');
    expect(resolveRouteMeta('/console/dashboard').type).toBe('app');
    expect(resolveRouteMeta('/console/users/users/').type).toBe('resource');
    expect(resolveRouteMeta('/console/users/users/:id/update').type).toBe('crud');
  });

  it('names the view, app and resource from the first three segments', () => {
    const meta = resolveRouteMeta('/console/accounts/account-template/create');
    expect([meta.view, meta.app, meta.resource]).toEqual(['console', 'accounts', 'accounttemplate']);
  });
});

describe('route action from the path', () => {
  it.each([
    ['/console/users/users/create', 'create'],
    ['/console/users/users/:id/update', 'update'],
    ['/console/users/users/:id/delete', 'destroy'],
    ['/console/users/users/:id', 'retrieve'],
    ['/console/users/users/', 'list'],
    ['/console/dashboard', 'list'],
  ] as const)('%s is %s', (path, action) => {
    expect(routeActionOfPath(path)).toBe(action);
    expect(resolveRouteMeta(path).action).toBe(action);
  });
});

describe('resource names', () => {
  it("drop '-' and one trailing 's'", () => {
    expect(resourceNameOfPath('account-template')).toBe('accounttemplate');
    expect(resourceNameOfPath('users')).toBe('user');
    expect(resourceNameOfPath('login-asset-acls')).toBe('loginassetacl');
    expect(resourceNameOfPath('address')).toBe('addres');
    expect(resourceNameOfPath('groups/')).toBe('group');
  });
});

describe('required permission', () => {
  it('maps create, update, list, retrieve and destroy to add, change, view, view and del', () => {
    expect(permissionFor('users', 'create', 'user')).toBe('users.add_user');
    expect(resolveRouteMeta('/console/users/users/create').permissions).toEqual(['users.add_user']);
    expect(resolveRouteMeta('/console/users/users/:id/update').permissions).toEqual(['users.change_user']);
    expect(resolveRouteMeta('/console/users/groups/').permissions).toEqual(['users.view_group']);
    expect(resolveRouteMeta('/console/users/groups/:id', { resource: 'usergroup' }).permissions).toEqual([
      'users.view_usergroup',
    ]);
    expect(resolveRouteMeta('/console/users/groups/:id/delete', { resource: 'usergroup' }).permissions).toEqual([
      'users.del_usergroup',
    ]);
  });

  it('is none for a route without a resource or for a grouping route, and the stated one wins', () => {
    expect(resolveRouteMeta('/console/dashboard').permissions).toEqual([]);
    expect(resolveRouteMeta('/console/users/users', {}, { isGroup: true }).permissions).toEqual([]);
    expect(resolveRouteMeta('/console/dashboard', { permissions: 'rbac.view_console' }).permissions).toEqual([
      'rbac.view_console',
    ]);
    expect(
      resolveRouteMeta('/console/users/roles/', { permissions: ['rbac.view_orgrole | rbac.view_systemrole'] })
        .permissions,
    ).toEqual(['rbac.view_orgrole | rbac.view_systemrole']);
  });
});

describe('inheritance from the parent route', () => {
  it('passes on the organisation flags and points crud pages at their parent menu entry', () => {
    const parent = resolveRouteMeta('/console/users/roles/', { disableOrgsChange: true, showOrganization: false });
    const child = resolveRouteMeta('/console/users/roles/:id', {}, { parent });
    expect(child.disableOrgsChange).toBe(true);
    expect(child.showOrganization).toBe(false);
    expect(child.activeMenu).toBe('/console/users/roles/');
    expect(resolveRouteMeta('/console/users/roles/:id', { showOrganization: true }, { parent }).showOrganization).toBe(
      true,
    );
  });

  it('keeps the app and resource a parent names for its pages below it and for its index page', () => {
    const groups = resolveRouteMeta('/console/users/groups/', { resource: 'usergroup' }, { isGroup: true });
    expect(groups.permissions).toEqual([]);
    expect(resolveRouteMeta('/console/users/groups/', {}, { parent: groups }).permissions).toEqual([
      'users.view_usergroup',
    ]);
    expect(resolveRouteMeta('/console/users/groups/create', {}, { parent: groups }).permissions).toEqual([
      'users.add_usergroup',
    ]);
    const app = resolveRouteMeta('/console/people', { app: 'users' }, { isGroup: true });
    expect(resolveRouteMeta('/console/people/users/', {}, { parent: app }).permissions).toEqual(['users.view_user']);
  });

  it('joins relative child paths to the parent path', () => {
    expect(joinRoutePath('/console', 'users')).toBe('/console/users');
    expect(joinRoutePath('/console/users/', 'users/')).toBe('/console/users/users/');
    expect(joinRoutePath('/console', '/profile')).toBe('/profile');
    expect(joinRoutePath('/console', undefined)).toBe('/console');
  });
});

describe('hidden routes', () => {
  const roles = resolveRouteMeta<Settings>('/console/users/roles/', {
    permissions: ['rbac.view_orgrole | rbac.view_systemrole'],
    licenseRequired: true,
  });

  it('are hidden by their flag, or by a flag function of the route and the public settings', () => {
    expect(routeHiddenReason(resolveRouteMeta<Settings>('/console/dashboard', { hidden: true }), ctx([]))).toBe('flag');
    const ops = resolveRouteMeta<Settings>('/workbench/ops', {
      hidden: ({ settings }) => !settings?.SECURITY_COMMAND_EXECUTION,
    });
    expect(routeHiddenReason(ops, ctx([]))).toBe('flag');
    expect(routeHiddenReason(ops, ctx([], { settings: { SECURITY_COMMAND_EXECUTION: true } }))).toBeUndefined();
    const seen: string[] = [];
    routeHiddenReason(
      resolveRouteMeta<Settings>('/x/y', { hidden: ({ route }) => (seen.push(route.fullPath), false) }),
      ctx([]),
    );
    expect(seen).toEqual(['/x/y']);
  });

  it('need every permission of a list, and any one part of an item with |', () => {
    const both = resolveRouteMeta('/workbench/ops/quick-job', { permissions: ['ops.view_job', 'ops.add_job'] });
    expect(routeHiddenReason(both, ctx(['ops.view_job']))).toBe('permission');
    expect(routeHiddenReason(both, ctx(['ops.view_job', 'ops.add_job']))).toBeUndefined();
    expect(routeHiddenReason(roles, ctx(['rbac.view_systemrole'], { licenseValid: true }))).toBeUndefined();
    expect(routeHiddenReason(roles, ctx(['users.view_user'], { licenseValid: true }))).toBe('permission');
  });

  it('are hidden when they require a licence that is not valid', () => {
    expect(routeHiddenReason(roles, ctx(['rbac.view_orgrole']))).toBe('license');
  });

  it('leave the menu with their children, and a parent goes when all its children are hidden', () => {
    const node = (path: string, extra = {}, children?: MetaNode<Settings>[]): MetaNode<Settings> => ({
      meta: resolveRouteMeta<Settings>(path, extra, { isGroup: Boolean(children) }),
      ...(children ? { children } : {}),
    });
    const tree = [
      node('/console/dashboard'),
      node('/console/users', {}, [
        node('/console/users/users/'),
        node('/console/users/groups/', { resource: 'usergroup' }),
      ]),
      node('/console/perms', {}, [node('/console/perms/login-acls/')]),
      node('/console/secret', { hidden: true }, [node('/console/secret/things/')]),
    ];
    const shown = visibleRoutes(tree, ctx(['users.view_usergroup']));
    expect(shown.map((n) => n.meta.fullPath)).toEqual(['/console/dashboard', '/console/users']);
    expect(shown[1]!.children!.map((n) => n.meta.fullPath)).toEqual(['/console/users/groups/']);
  });
});

describe('licence validity', () => {
  it('comes from the settings only when the paid extension is enabled', () => {
    expect(licenseIsValid({ XPACK_ENABLED: false, XPACK_LICENSE_IS_VALID: true })).toBe(false);
    expect(licenseIsValid({ XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true })).toBe(true);
    expect(licenseIsValid({ XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: false })).toBe(false);
    expect(licenseIsValid(null)).toBe(false);
  });
});

describe('route names and cloning', () => {
  it('replace List with Create, Update or Detail, and Detail with Update or List', () => {
    expect(relatedRouteName('UserList', 'Create')).toBe('UserCreate');
    expect(relatedRouteName('UserList', 'Update')).toBe('UserUpdate');
    expect(relatedRouteName('AssetAccountList', 'Detail')).toBe('AssetAccountDetail');
    expect(relatedRouteName('UserGroupDetail', 'Update')).toBe('UserGroupUpdate');
    expect(relatedRouteName('UserGroupDetail', 'List')).toBe('UserGroupList');
    expect(() => relatedRouteName('AdminDashboard', 'Create')).toThrow(/no List/);
  });

  it('carry the clone source in the clone_from query parameter', () => {
    expect(cloneQuery('42')).toEqual({ clone_from: '42' });
    expect(cloneSourceId('?clone_from=42&x=1')).toBe('42');
    expect(cloneSourceId('x=1')).toBeUndefined();
    expect(cloneSourceId('?clone_from=a%2Fb')).toBe('a/b');
  });
});
