import { useMemo } from 'react';
import { Alert, Button, Empty, Spin, Tooltip, Tree, type TreeDataNode } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import { findNode, loadedKeys, type NodeItem } from './treeState.ts';
import { useNodeTree, type NodeTreeSource } from './useNodeTree.ts';
import styles from './nodeTree.module.css';

export interface BrowseTreeProps {
  /** Reloads the tree when it changes (the organisation, the user whose grants are shown). */
  orgKey: string;
  source?: NodeTreeSource;
  /** i18n key of the heading. */
  title: string;
  selectedKey?: string;
  onSelect(node: NodeItem | null): void;
  height: number;
  testId?: string;
}

function toData(nodes: NodeItem[]): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title: n.value,
    isLeaf: n.children !== undefined && n.children.length === 0,
    children: n.children ? toData(n.children) : undefined,
  }));
}

/**
 * A node tree to browse and pick from, without the editing of the asset list's tree: lazy levels,
 * exact counts, refresh. The permission list, a user's granted assets and the workbench use it over
 * their own sources.
 */
export function BrowseTree({ orgKey, source, title, selectedKey, onSelect, height, testId }: BrowseTreeProps) {
  const { t } = useTranslation();
  const nt = useNodeTree(orgKey, source);
  const data = useMemo(() => toData(nt.tree), [nt.tree]);
  return (
    <div className={styles.box} data-testid={testId ?? 'browse-tree'}>
      <div className={styles.head}>
        <span>{t(title)}</span>
        <Tooltip title={t('assetList.tree.refresh')}>
          <Button
            size="small"
            type="text"
            icon={<ReloadOutlined />}
            aria-label={t('assetList.tree.refresh')}
            onClick={() => void nt.refresh()}
          />
        </Tooltip>
      </div>
      {nt.error ? <Alert type="error" showIcon title={errorMessage(nt.error, t)} /> : null}
      {nt.loading ? (
        <Spin className={styles.spin} />
      ) : !nt.tree.length && !nt.error ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree
          virtual
          height={height}
          blockNode
          treeData={data}
          titleRender={(d) => {
            const n = findNode(nt.tree, String(d.key));
            return n ? (
              <span className={styles.title} data-testid="node-title" data-key={n.key}>
                {n.value} <span className={styles.count}>({n.count})</span>
              </span>
            ) : null;
          }}
          expandedKeys={nt.expanded}
          loadedKeys={loadedKeys(nt.tree)}
          onExpand={(keys) => nt.setExpanded(keys.map(String))}
          loadData={async (d) => {
            if (!findNode(nt.tree, String(d.key))?.children) await nt.loadChildren(String(d.key));
          }}
          selectedKeys={selectedKey ? [selectedKey] : []}
          onSelect={(keys) => onSelect(keys.length ? (findNode(nt.tree, String(keys[0])) ?? null) : null)}
        />
      )}
    </div>
  );
}
