import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Empty, Input, Spin, Tooltip, Tree, type TreeDataNode } from 'antd';
import { CloudServerOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  FAVORITE_KEY,
  findNode,
  loadedKeys,
  nest,
  searchResults,
  withChildren,
  withFavorites,
  type LunaNode,
} from './assetTree.ts';
import { lunaApi } from './lunaApi.ts';
import { FavoriteStar, useFavorites } from '../../features/workbench/myAssets/FavoriteStar.tsx';
import styles from './luna.module.css';

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
      ) : (
        <span data-testid="tree-node" data-key={n.key}>
          {n.title}
        </span>
      ),
    isLeaf: n.isLeaf,
    disabled: n.disabled,
    icon: n.kind === 'asset' ? <CloudServerOutlined /> : undefined,
    children: n.children ? toData(n.children, stars) : undefined,
  }));
}

/**
 * The user's granted tree (Favourites, nodes and their assets, one level per request) with a
 * search box over the granted assets; clicking an asset asks to connect to it, its star (shown on
 * hover, always when on) adds it to or removes it from the favourites.
 */
export function AssetTree({ onAsset }: { onAsset(asset: LunaNode): void }) {
  const { t } = useTranslation();
  const [tree, setTree] = useState<LunaNode[] | undefined>();
  const [expanded, setExpanded] = useState<string[]>([]);
  const [found, setFound] = useState<LunaNode[] | undefined>();
  const [error, setError] = useState<string | undefined>();
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
      .catch(() => (setTree([]), setError(t('luna.tree.failed'))));
  }, [t]);
  useEffect(load, [load]);
  const search = (text: string) => {
    if (!text.trim()) return setFound(undefined);
    lunaApi
      .searchAssets(text.trim())
      .then((items) => setFound(searchResults(items)))
      .catch(() => setError(t('luna.tree.failed')));
  };
  const favorites = useFavorites().data;
  // A star changed: the Favourites node's count, and its assets when it is loaded, come anew.
  const refreshFavorites = useCallback(() => {
    const loaded = Boolean(tree && findNode(tree, FAVORITE_KEY)?.children);
    void Promise.all([lunaApi.treeLevel(), loaded ? lunaApi.treeLevel('favorite') : undefined])
      .then(([top, children]) => setTree((cur) => cur && withFavorites(cur, nest(top), children && nest(children))))
      .catch(() => setError(t('luna.tree.failed')));
  }, [tree, t]);
  const shown = found ?? tree ?? [];
  const loadLevel = async (node: LunaNode) => {
    if (node.kind !== 'node' || node.children) return;
    const children = nest(await lunaApi.treeLevel(node.ref));
    setTree((cur) => withChildren(cur ?? [], node.key, children));
  };
  return (
    <div className={styles.tree} data-testid="luna-tree">
      <div className={styles.treeHead}>
        <span>{t('luna.tree.title')}</span>
        <Tooltip title={t('luna.tree.refresh')}>
          <Button
            size="small"
            type="text"
            icon={<ReloadOutlined />}
            aria-label={t('luna.tree.refresh')}
            onClick={load}
          />
        </Tooltip>
      </div>
      <Input.Search
        size="small"
        allowClear
        placeholder={t('luna.tree.search')}
        onSearch={search}
        data-testid="luna-tree-search"
      />
      {error ? <Alert type="error" showIcon title={error} /> : null}
      {!tree ? (
        <Spin className={styles.spin} />
      ) : !shown.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('luna.tree.empty')} />
      ) : (
        <Tree
          blockNode
          showIcon
          treeData={toData(shown, { favorites, onChange: refreshFavorites })}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys.map(String))}
          loadedKeys={found ? [] : loadedKeys(tree)}
          loadData={async (d) => {
            const node = findNode(tree, String(d.key));
            if (node) await loadLevel(node);
          }}
          selectedKeys={[]}
          onSelect={(keys) => {
            const n = findNode(shown, String(keys[0]));
            if (n?.kind === 'asset') onAsset(n);
            else if (n) {
              // A click on a node opens or closes it, loading its level the first time.
              void loadLevel(n);
              setExpanded((e) => (e.includes(n.key) ? e.filter((k) => k !== n.key) : [...e, n.key]));
            }
          }}
        />
      )}
    </div>
  );
}
