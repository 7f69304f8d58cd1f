import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Empty, Input, Spin, Tooltip, Tree, type TreeDataNode } from 'antd';
import { CloudServerOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { findNode, loadedKeys, nest, searchResults, withChildren, type LunaNode } from './assetTree.ts';
import { lunaApi } from './lunaApi.ts';
import styles from './luna.module.css';

function toData(nodes: LunaNode[]): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title: (
      <span data-testid={n.kind === 'asset' ? 'tree-asset' : 'tree-node'} title={n.address}>
        {n.title}
      </span>
    ),
    isLeaf: n.isLeaf,
    disabled: n.disabled,
    icon: n.kind === 'asset' ? <CloudServerOutlined /> : undefined,
    children: n.children ? toData(n.children) : undefined,
  }));
}

/**
 * The user's granted tree (Favourites, nodes and their assets, one level per request) with a
 * search box over the granted assets; clicking an asset asks to connect to it.
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
          treeData={toData(shown)}
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
