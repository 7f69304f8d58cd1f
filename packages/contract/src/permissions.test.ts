import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  BUILTIN_ROLES,
  grantablePermissions,
  hasPermission,
  isOnlySystemPermission,
  permissionById,
  permissionId,
} from './permissions.ts';

describe('permission catalogue', () => {
  it('gives every permission a distinct, stable integer id', () => {
    const ids = ALL_PERMISSIONS.map(permissionId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(permissionId('users.view_user')).toBe(permissionId('users.view_user'));
    expect(permissionById(permissionId('assets.add_asset'))).toBe('assets.add_asset');
  });

  it('keeps system-only permissions out of org roles', () => {
    expect(isOnlySystemPermission('users.delete_user')).toBe(true);
    expect(isOnlySystemPermission('settings.change_security')).toBe(true);
    expect(isOnlySystemPermission('users.view_user')).toBe(false);
    expect(isOnlySystemPermission('authentication.view_superconnectiontokensecret')).toBe(true);
    expect(grantablePermissions('org')).not.toContain('orgs.add_organization');
    const orgAdmin = BUILTIN_ROLES.find((r) => r.name === 'OrgAdmin')!;
    expect(orgAdmin.permissions).toContain('assets.add_asset');
    expect(orgAdmin.permissions).not.toContain('rbac.add_systemrole');
  });

  it('gives auditors the audit view and no console', () => {
    const auditor = BUILTIN_ROLES.find((r) => r.name === 'OrgAuditor')!;
    expect(auditor.permissions).toContain('rbac.view_audit');
    expect(auditor.permissions).toContain('audits.view_operatelog');
    expect(auditor.permissions).not.toContain('rbac.view_console');
  });

  it('evaluates lists (all) and | (any of)', () => {
    const held = ['a.view_x', 'b.add_y'];
    expect(hasPermission(held, ['a.view_x', 'b.add_y'])).toBe(true);
    expect(hasPermission(held, ['a.view_x', 'c.del_z'])).toBe(false);
    expect(hasPermission(held, 'c.del_z | b.add_y')).toBe(true);
    expect(hasPermission(held, '*')).toBe(true);
  });
});
