import { useCallback, useEffect, useRef, useState } from 'react';
import { nodeApi } from './nodeApi.ts';
import {
  findNode,
  initialTree,
  keepExisting,
  loadedKeys,
  nodeItems,
  setChildren,
  type NodeItem,
  type ZTreeItem,
} from './treeState.ts';

/** Where a tree's levels come from: the roots with their children (no key) or one key's children. */
export type NodeTreeSource = (key?: string) => Promise<ZTreeItem[]>;

/**
 * The asset node tree's state: roots first, children loaded when a node is expanded, and a
 * refresh that reloads every loaded level (so counts stay exact after a change and nodes whose key
 * changed in a move disappear from where they were). `source` is the org's node tree by default; the
 * granted trees (a user's, the workbench's) give theirs.
 */
export function useNodeTree(orgKey: string, source: NodeTreeSource = nodeApi.tree) {
  const [tree, setTree] = useState<NodeItem[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const treeRef = useRef(tree);
  treeRef.current = tree;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const roots = initialTree(await source());
      setTree(roots);
      setExpanded(roots.map((r) => r.key));
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  }, [source]);

  useEffect(() => {
    void load();
  }, [load, orgKey]);

  const loadChildren = useCallback(
    async (key: string) => {
      const children = nodeItems(await source(key));
      setTree((t) => setChildren(t, key, children));
    },
    [source],
  );

  /** Reloads the roots and every loaded level, parents first; keeps what is expanded where it still exists. */
  const refresh = useCallback(async () => {
    const old = treeRef.current;
    let next = initialTree(await source());
    for (const k of loadedKeys(old)) {
      if (next.some((r) => r.key === k) || !findNode(next, k)) continue;
      try {
        next = setChildren(next, k, nodeItems(await source(k)));
      } catch {
        // The node went away meanwhile: its level is simply not shown.
      }
    }
    setTree(next);
    setExpanded((e) => keepExisting(next, e));
  }, [source]);

  return { tree, expanded, setExpanded, loading, error, reload: load, loadChildren, refresh };
}
