import { describe, expect, it } from 'vitest';
import {
  ancestorKeys,
  canMoveNode,
  countOf,
  findNode,
  initialTree,
  keepExisting,
  loadedKeys,
  nodeItems,
  patchNode,
  setChildren,
  type ZTreeItem,
} from './treeState.ts';

const z = (key: string, value: string, n: number, open = false): ZTreeItem => ({
  id: key,
  name: `${value} (${n})`,
  pId: key.includes(':') ? key.slice(0, key.lastIndexOf(':')) : '',
  isParent: true,
  open,
  meta: { type: 'node', data: { id: `id-${key}`, key, value } },
});

describe('node tree state', () => {
  it('reads counts and ancestor keys', () => {
    expect(countOf('web (12)')).toBe(12);
    expect(countOf('a (b) (3)')).toBe(3);
    expect(countOf('plain')).toBe(0);
    expect(ancestorKeys('1:2:3')).toEqual(['1', '1:2', '1:2:3']);
  });

  it('builds the roots with their children from the first answer and drops assets', () => {
    const asset: ZTreeItem = { id: 'a1', name: 'host', pId: '1', meta: { type: 'asset' } };
    const tree = initialTree([z('1', 'DEFAULT', 5, true), z('1:1', 'a', 3), z('1:2', 'b', 2), asset]);
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ key: '1', id: 'id-1', value: 'DEFAULT', count: 5 });
    expect(tree[0]!.children!.map((c) => c.value)).toEqual(['a', 'b']);
    expect(nodeItems([asset])).toEqual([]);
  });

  it('leaves a root that has children but came alone (a granted tree answers one level) to load later', () => {
    const granted = { ...z('1', 'DEFAULT', 1), isParent: true };
    expect(initialTree([granted])[0]!.children).toBeUndefined();
    expect(initialTree([{ ...granted, isParent: false }])[0]!.children).toEqual([]);
  });

  it('loads children lazily, keeps loaded grandchildren and lists loaded keys parents first', () => {
    let tree = initialTree([z('1', 'DEFAULT', 5, true), z('1:1', 'a', 3), z('1:2', 'b', 2)]);
    tree = setChildren(tree, '1:1', nodeItems([z('1:1:1', 'a1', 3)]));
    tree = setChildren(tree, '1:1:1', nodeItems([z('1:1:1:1', 'a11', 1)]));
    expect(findNode(tree, '1:1:1:1')?.value).toBe('a11');
    expect(loadedKeys(tree)).toEqual(['1', '1:1', '1:1:1']);
    // Reloading 1:1 with a new count keeps a1's loaded children.
    tree = setChildren(tree, '1:1', nodeItems([z('1:1:1', 'a1', 4)]));
    expect(findNode(tree, '1:1:1')?.count).toBe(4);
    expect(findNode(tree, '1:1:1:1')).toBeDefined();
    // A node moved away (its key gone) loses its loaded subtree.
    tree = setChildren(tree, '1:1', []);
    expect(findNode(tree, '1:1:1')).toBeUndefined();
    expect(keepExisting(tree, ['1', '1:1:1', '1:2'])).toEqual(['1', '1:2']);
  });

  it('patches one node without touching others', () => {
    const tree = patchNode(initialTree([z('1', 'DEFAULT', 5, true), z('1:1', 'a', 3)]), '1:1', {
      value: 'renamed',
      count: 9,
    });
    expect(findNode(tree, '1:1')).toMatchObject({ value: 'renamed', count: 9 });
    expect(findNode(tree, '1')?.count).toBe(5);
  });

  it('refuses moves of the root, onto itself, below itself or onto its own parent', () => {
    const [root] = initialTree([z('1', 'DEFAULT', 0, true)]);
    const a = nodeItems([z('1:1', 'a', 0)])[0]!;
    const a1 = nodeItems([z('1:1:1', 'a1', 0)])[0]!;
    const b = nodeItems([z('1:2', 'b', 0)])[0]!;
    expect(canMoveNode(a, b)).toBe(true);
    expect(canMoveNode(a1, b)).toBe(true);
    expect(canMoveNode(root!, a)).toBe(false);
    expect(canMoveNode(a, a)).toBe(false);
    expect(canMoveNode(a, a1)).toBe(false);
    expect(canMoveNode(a1, a)).toBe(false);
  });
});
