import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, permissionId } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** Roles, bindings and the permission tree, and their effect on a user's perms. */
let t: TestApp;
let admin: SessionClient;
let alice: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  alice = (
    await admin.post('/api/v1/users/users/', {
      name: 'Alice',
      username: 'alice',
      email: 'alice@example.com',
      password_strategy: 'custom',
      password: 'Alice-pass1',
    })
  ).json();
});
afterAll(async () => t.close());

describe('roles', () => {
  it('lists builtin roles with display names and user counts', async () => {
    const roles = (await admin.get('/api/v1/rbac/system-roles/')).json();
    const sa = roles.find((r: { id: string }) => r.id === BUILTIN_ROLE_IDS.SystemAdmin);
    expect(sa).toMatchObject({
      name: 'SystemAdmin',
      display_name: 'System administrator',
      builtin: true,
      scope: { value: 'system', label: 'System' },
      users_amount: 1,
    });
    expect(roles.every((r: { scope: { value: string } }) => r.scope.value === 'system')).toBe(true);
  });

  it('refuses to change or delete a builtin role', async () => {
    const res = await admin.request({
      method: 'PATCH',
      url: `/api/v1/rbac/org-roles/${BUILTIN_ROLE_IDS.OrgUser}/`,
      payload: { comment: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/v1/rbac/org-roles/${BUILTIN_ROLE_IDS.OrgUser}/` }))
        .statusCode,
    ).toBe(403);
  });

  it('creates a custom org role whose permissions reach the bound user in that org only', async () => {
    const perms = ['users.view_user', 'users.view_usergroup', 'rbac.view_console'].map(permissionId);
    const role = (await admin.post('/api/v1/rbac/org-roles/', { name: 'Helpdesk', permissions: perms })).json();
    expect(role).toMatchObject({ name: 'Helpdesk', builtin: false, scope: { value: 'org' } });
    const tree = (await admin.get(`/api/v1/rbac/org-roles/${role.id}/permissions/tree/`)).json();
    expect(
      tree
        .filter((n: { checked: boolean }) => n.checked)
        .map((n: { title: string }) => n.title)
        .sort(),
    ).toEqual(['rbac.view_console', 'users.view_user', 'users.view_usergroup']);
    expect(tree.find((n: { id: string }) => n.id === '$ROOT$').name).toMatch(/\(3\/\d+\)$/);
    const bind = await admin.post('/api/v1/rbac/org-role-bindings/', { user: alice.id, role: role.id });
    expect(bind.statusCode).toBe(201);
    expect(bind.json()).toMatchObject({
      user: { id: alice.id, username: 'alice' },
      role: { id: role.id },
      scope: { value: 'org' },
      org_name: 'DEFAULT',
    });
    const c = new SessionClient(t.app);
    await c.login('alice', 'Alice-pass1');
    const profile = (await c.get('/api/v1/users/profile/')).json();
    expect(profile.perms).toContain('users.view_user');
    expect(profile.console_orgs.map((o: { name: string }) => o.name)).toEqual(['DEFAULT']);
    expect((await c.get('/api/v1/users/users/')).statusCode).toBe(200);
    expect((await c.post('/api/v1/users/groups/', { name: 'nope' })).statusCode).toBe(403);
  });

  it('refuses system-only permissions on an org role, and duplicate names in a scope', async () => {
    const bad = await admin.post('/api/v1/rbac/org-roles/', {
      name: 'Sneaky',
      permissions: [permissionId('orgs.add_organization')],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().permissions[0]).toMatch(/cannot be granted/);
    expect((await admin.post('/api/v1/rbac/org-roles/', { name: 'Helpdesk' })).json().name[0]).toMatch(
      /already exists/,
    );
  });

  it('refuses deleting a role that users hold', async () => {
    const [role] = (await admin.get('/api/v1/rbac/org-roles/?name=Helpdesk')).json();
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/rbac/org-roles/${role.id}/` })).statusCode).toBe(403);
  });
});

describe('bindings', () => {
  it('refuses a duplicate binding and the removal of the last system role', async () => {
    const dup = await admin.post('/api/v1/rbac/system-role-bindings/', { user: alice.id, role: BUILTIN_ROLE_IDS.User });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ role: ['Has bound this role'] });
    const [b] = (await admin.get(`/api/v1/rbac/system-role-bindings/?user=${alice.id}`)).json();
    const del = await admin.request({ method: 'DELETE', url: `/api/v1/rbac/system-role-bindings/${b.id}/` });
    expect(del.statusCode).toBe(400);
    expect(del.json().code).toBe('system_role_delete_error');
  });

  it('filters by username and gives the users of a role', async () => {
    const list = (await admin.get('/api/v1/rbac/org-role-bindings/?user__username=alice')).json();
    expect(list.length).toBe(2);
    const users = (await admin.get(`/api/v1/rbac/roles/${BUILTIN_ROLE_IDS.SystemAdmin}/users/`)).json();
    expect(users.results.map((u: { username: string }) => u.username)).toEqual(['admin']);
  });
});
