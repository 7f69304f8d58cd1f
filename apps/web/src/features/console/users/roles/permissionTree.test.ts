import { describe, expect, it } from 'vitest';
import {
  buildPermissionTree,
  checkedPermissionIds,
  liveTitle,
  permissionIdsToSave,
  treeReadOnly,
  type PermissionNode,
} from './permissionTree.ts';

const node = (id: string, pId: string, type: string, extra: Partial<PermissionNode> = {}): PermissionNode => ({
  id,
  name: id,
  title: id,
  pId,
  isParent: type !== 'perm',
  checked: false,
  chkDisabled: false,
  meta: { type },
  ...extra,
});

const NODES: PermissionNode[] = [
  node('$ROOT$', '', 'root'),
  node('users', '$ROOT$', 'app'),
  node('users.user', 'users', 'model'),
  node('11', 'users.user', 'perm', { title: 'users.view_user', checked: true }),
  node('12', 'users.user', 'perm', { title: 'users.add_user' }),
  node('users.usergroup', 'users', 'model'),
  node('21', 'users.usergroup', 'perm', { title: 'users.view_usergroup', checked: true }),
];

describe('the permission tree of a role', () => {
  it('nests the flat pId list in the server order', () => {
    const [root] = buildPermissionTree(NODES);
    expect(root!.key).toBe('$ROOT$');
    const users = root!.children![0]!;
    expect(users.children!.map((m) => m.key)).toEqual(['users.user', 'users.usergroup']);
    expect(users.children![0]!.children!.map((p) => [p.key, p.code])).toEqual([
      ['11', 'users.view_user'],
      ['12', 'users.add_user'],
    ]);
    expect(users.children![0]!.children![0]!.children).toBeUndefined();
  });

  it('starts from the granted leaves and saves only leaves, as numbers', () => {
    expect(checkedPermissionIds(NODES)).toEqual(['11', '21']);
    expect(permissionIdsToSave(NODES, ['$ROOT$', 'users', 'users.user', '12', '11', '11'])).toEqual([11, 12]);
    expect(permissionIdsToSave(NODES, [])).toEqual([]);
  });

  it('is read-only when every node is disabled (builtin roles)', () => {
    expect(treeReadOnly(NODES)).toBe(false);
    expect(treeReadOnly(NODES.map((n) => ({ ...n, chkDisabled: true })))).toBe(true);
    expect(treeReadOnly([])).toBe(false);
  });

  it("counts the ticked permissions of each group as they are ticked, replacing the server's count", () => {
    const [root] = buildPermissionTree(NODES.map((n) => (n.id === 'users' ? { ...n, name: 'Users(2/3)' } : n)));
    const users = root!.children![0]!;
    expect(liveTitle(users, new Set(['11', '21']))).toBe('Users(2/3)');
    expect(liveTitle(users, new Set(['11', '12', '21']))).toBe('Users(3/3)');
    expect(liveTitle(users.children![1]!, new Set())).toBe('users.usergroup(0/1)');
    expect(liveTitle(users.children![0]!.children![0]!, new Set(['11']))).toBe('11');
  });
});
