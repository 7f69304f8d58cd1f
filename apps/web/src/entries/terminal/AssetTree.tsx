import { useCallback, useEffect, useRef } from 'react';
import { Tree, type TreeDataNode } from 'antd';
import { CloudServerOutlined, CodeSandboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  containerOf,
  FAVORITE_KEY,
  findNode,
  k8sNodes,
  loadedKeys,
  nest,
  withChildren,
  withFavorites,
  type LunaNode,
} from './assetTree.ts';
import { lunaApi } from './lunaApi.ts';
import { useGrantedTree } from './useGrantedTree.ts';
import { refusalText } from './ConnectDialog.tsx';
import { FavoriteStar, useFavorites } from '../../features/workbench/myAssets/FavoriteStar.tsx';
import styles from './luna.module.css';
import { TreePanel } from '../../resource/TreePanel.tsx';

/** What an asset's star needs: the favourite ids, and what to do once one changed. */
interface Stars {
  favorites: ReadonlySet<string> | undefined;
  onChange(): void;
}

function assetTitle(n: LunaNode, stars: Stars) {
  const on = Boolean(stars.favorites?.has(n.ref));
  return (
    <span className={styles.assetTitle}>
      <span data-testid="tree-asset" title={n.address}>
        {n.title}
      </span>
      {/* The star is its own button: a click on it must not also connect. */}
      <span
        className={`${styles.star} ${on ? styles.starOn : ''}`}
        onClick={(e) => e.stopPropagation()}
        data-testid="tree-star"
      >
        <FavoriteStar assetId={n.ref} on={on} onChange={stars.onChange} />
      </span>
    </span>
  );
}

function toData(nodes: LunaNode[], stars: Stars): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title:
      n.kind === 'asset' ? (
        assetTitle(n, stars)
      ) : n.kind === 'k8s' ? (
        <span data-testid="tree-k8s" data-ref={n.ref}>
          {n.title}
        </span>
      ) : (
        <span data-testid="tree-node" data-key={n.key}>
          {n.title}
        </span>
      ),
    isLeaf: n.isLeaf,
    disabled: n.disabled,
    icon: n.kind === 'asset' ? <CloudServerOutlined /> : containerOf(n) ? <CodeSandboxOutlined /> : undefined,
    children: n.children ? toData(n.children, stars) : undefined,
  }));
}

/**
 * The user's granted tree (Favourites, nodes and their assets, one level per request) with a
 * search box over the granted assets; clicking an asset asks to connect to it, its star (shown on
 * hover, always when on) adds it to or removes it from the favourites. A Kubernetes asset opens
 * instead: `k8sToken` asks for a k8s connection token (the connect dialog), with which its
 * namespaces, pods and containers load level by level; clicking a container is `onContainer`.
 */
export function AssetTree({
  onAsset,
  k8sToken,
  onContainer,
  pinned,
}: {
  onAsset(asset: LunaNode): void;
  k8sToken(asset: LunaNode): Promise<string | undefined>;
  onContainer(node: LunaNode): void;
  /** An asset shown open at the top (a deep link to a Kubernetes asset: its cluster loads at once). */
  pinned?: LunaNode;
}) {
  const { t } = useTranslation();
  const { tree, setTree, setFound, expanded, setExpanded, error, setError, load, search, shown } = useGrantedTree(() =>
    t('luna.tree.failed'),
  );
  const favorites = useFavorites().data;
  // A star changed: the Favourites node's count, and its assets when it is loaded, come anew.
  const refreshFavorites = useCallback(() => {
    const loaded = Boolean(tree && findNode(tree, FAVORITE_KEY)?.children);
    void Promise.all([lunaApi.treeLevel(), loaded ? lunaApi.treeLevel('favorite') : undefined])
      .then(([top, children]) => setTree((cur) => cur && withFavorites(cur, nest(top), children && nest(children))))
      .catch(() => setError(t('luna.tree.failed')));
  }, [tree, t, setTree, setError]);
  useEffect(() => {
    if (!pinned || !tree || findNode(tree, pinned.key)) return;
    setTree([pinned, ...tree]);
    // Expanded, antd loads it (loadData): for a k8s asset, the connect dialog, then its namespaces.
    setExpanded((e) => [...e, pinned.key]);
  }, [pinned, tree, setTree, setExpanded]);
  // A click on a closed node both expands it (antd then loads it) and loads it: one load per node at a time.
  const loading = useRef(new Map<string, Promise<void>>());
  const loadLevel = (node: LunaNode): Promise<void> => {
    const running = loading.current.get(node.key);
    if (running) return running;
    const load = loadOnce(node).finally(() => loading.current.delete(node.key));
    loading.current.set(node.key, load);
    return load;
  };
  const loadOnce = async (node: LunaNode) => {
    if (node.children || node.isLeaf) return;
    let children: LunaNode[];
    if (node.kind === 'node') children = nest(await lunaApi.treeLevel(node.ref));
    else {
      const token = node.kind === 'asset' ? await k8sToken(node) : node.k8s?.token;
      if (!token) return;
      const assetId = node.kind === 'asset' ? node.ref : node.k8s!.assetId;
      const key = node.kind === 'asset' ? `asset_id=${node.ref}` : node.ref;
      try {
        children = k8sNodes(await lunaApi.k8sTree(token, key), node.key, token, assetId);
      } catch (e) {
        return setError(refusalText(e, t));
      }
      setError(undefined);
    }
    const update = (cur: LunaNode[]) => withChildren(cur, node.key, children);
    setTree((cur) => update(cur ?? []));
    // A k8s asset found by the search opens in the results too.
    setFound((cur) => cur && update(cur));
  };
  return (
    <TreePanel
      className={styles.tree}
      testId="luna-tree"
      title={t('luna.tree.title')}
      refreshLabel={t('luna.tree.refresh')}
      onRefresh={load}
      searchPlaceholder={t('luna.tree.search')}
      searchTestId="luna-tree-search"
      onSearch={search}
      error={error}
      loading={!tree}
      empty={!shown.length}
      emptyText={t('luna.tree.empty')}
    >
      <Tree
        blockNode
        showIcon
        treeData={toData(shown, { favorites, onChange: refreshFavorites })}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys.map(String))}
        loadedKeys={loadedKeys(shown)}
        loadData={async (d) => {
          const node = findNode(shown, String(d.key));
          if (node) await loadLevel(node);
        }}
        selectedKeys={[]}
        onSelect={(keys) => {
          const n = findNode(shown, String(keys[0]));
          if (n && containerOf(n)) onContainer(n);
          else if (n?.kind === 'asset' && n.platformType !== 'k8s') onAsset(n);
          else if (n) {
            // A click on a node opens or closes it, loading its level the first time.
            void loadLevel(n);
            setExpanded((e) => (e.includes(n.key) ? e.filter((k) => k !== n.key) : [...e, n.key]));
          }
        }}
      />
    </TreePanel>
  );
}
