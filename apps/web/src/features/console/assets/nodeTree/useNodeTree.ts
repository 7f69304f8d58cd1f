import { useCallback, useEffect, useRef, useState } from 'react';
import { nodeApi } from './nodeApi.ts';
import { findNode, initialTree, keepExisting, loadedKeys, setChildren, type NodeItem } from './treeState.ts';

/**
 * The asset node tree's state: roots first, children loaded when a node is expanded, and a
 * refresh that reloads every loaded level (so counts stay exact after a change and nodes whose key
 * changed in a move disappear from where they were).
 */
export function useNodeTree(orgKey: string) {
  const [tree, setTree] = useState<NodeItem[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const treeRef = useRef(tree);
  treeRef.current = tree;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const roots = initialTree(await nodeApi.tree());
      setTree(roots);
      setExpanded(roots.map((r) => r.key));
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load, orgKey]);

  const loadChildren = useCallback(async (key: string) => {
    const children = await nodeApi.children(key);
    setTree((t) => setChildren(t, key, children));
  }, []);

  /** Reloads the roots and every loaded level, parents first; keeps what is expanded where it still exists. */
  const refresh = useCallback(async () => {
    const old = treeRef.current;
    let next = initialTree(await nodeApi.tree());
    for (const k of loadedKeys(old)) {
      if (next.some((r) => r.key === k) || !findNode(next, k)) continue;
      try {
        next = setChildren(next, k, await nodeApi.children(k));
      } catch {
        // The node went away meanwhile: its level is simply not shown.
      }
    }
    setTree(next);
    setExpanded((e) => keepExisting(next, e));
  }, []);

  return { tree, expanded, setExpanded, loading, error, reload: load, loadChildren, refresh };
}
