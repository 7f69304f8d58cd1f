import { useCallback, useEffect, useRef, useState } from 'react';
import { nest, searchResults, type LunaNode } from './assetTree.ts';
import { lunaApi } from './lunaApi.ts';

/**
 * The state of the user's granted tree (the web terminal's, the quick job's targets): its top level
 * loaded at once with the nodes that came with children expanded, a search over the granted assets
 * shown instead of the tree while it has a term, and the error of either, worded by `failure`.
 */
export function useGrantedTree(failure: (e: unknown) => string) {
  const [tree, setTree] = useState<LunaNode[] | undefined>();
  const [found, setFound] = useState<LunaNode[] | undefined>();
  const [expanded, setExpanded] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  // The wording may change with each render (the language): read the latest, never reload for it.
  const word = useRef(failure);
  word.current = failure;
  const load = useCallback(() => {
    setTree(undefined);
    setError(undefined);
    lunaApi
      .treeLevel()
      .then((items) => {
        const top = nest(items);
        setTree(top);
        setExpanded(top.filter((n) => n.children).map((n) => n.key));
      })
      .catch((e: unknown) => (setTree([]), setError(word.current(e))));
  }, []);
  useEffect(load, [load]);
  const search = (text: string) => {
    if (!text.trim()) return setFound(undefined);
    lunaApi
      .searchAssets(text.trim())
      .then((items) => setFound(searchResults(items)))
      .catch((e: unknown) => setError(word.current(e)));
  };
  const shown = found ?? tree ?? [];
  return { tree, setTree, found, setFound, expanded, setExpanded, error, setError, load, search, shown };
}
