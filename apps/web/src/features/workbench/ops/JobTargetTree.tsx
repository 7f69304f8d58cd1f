import { Tree, type TreeDataNode } from 'antd';
import { CloudServerOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { findNode, loadedKeys, nest, withChildren, type LunaNode } from '../../../entries/terminal/assetTree.ts';
import { lunaApi } from '../../../entries/terminal/lunaApi.ts';
import { useGrantedTree } from '../../../entries/terminal/useGrantedTree.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { checkedKeys, toggle, type Targets } from './quickJob.ts';
import styles from './ops.module.css';
import { TreePanel } from '../../../resource/TreePanel.tsx';

const toData = (nodes: LunaNode[]): TreeDataNode[] =>
  nodes.map((n) => ({
    key: n.key,
    title: (
      <span data-testid={n.kind === 'asset' ? 'target-asset' : 'target-node'} title={n.address}>
        {n.title}
      </span>
    ),
    isLeaf: n.kind === 'asset' || n.isLeaf,
    disabled: n.disabled,
    icon: n.kind === 'asset' ? <CloudServerOutlined /> : undefined,
    children: n.children ? toData(n.children) : undefined,
  }));

/**
 * The user's granted tree (the web terminal's: nodes and assets, one level per request, a search
 * over the granted assets) with a checkbox on every node and asset. A checked node targets the
 * node (the server runs on its granted assets); an asset is checked wherever it shows.
 */
export function JobTargetTree({ value, onChange }: { value: Targets; onChange(t: Targets): void }) {
  const { t } = useTranslation();
  const { tree, setTree, expanded, setExpanded, error, load, search, shown } = useGrantedTree((e) =>
    errorMessage(e, t),
  );
  return (
    <TreePanel
      className={styles.treeBox}
      testId="job-target-tree"
      title={t('jobs.quick.targets')}
      refreshLabel={t('jobs.quick.refreshTree')}
      onRefresh={load}
      searchPlaceholder={t('jobs.quick.searchAssets')}
      searchTestId="job-target-search"
      onSearch={search}
      error={error}
      loading={!tree}
      empty={!shown.length}
      emptyText={t('jobs.quick.noAssets')}
    >
      <Tree
        checkable
        checkStrictly
        blockNode
        showIcon
        selectable={false}
        treeData={toData(shown)}
        checkedKeys={{ checked: checkedKeys(value, shown), halfChecked: [] }}
        onCheck={(_keys, info) => {
          const n = findNode(shown, String(info.node.key));
          if (n) onChange(toggle(value, n, info.checked));
        }}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys.map(String))}
        loadedKeys={loadedKeys(shown)}
        loadData={async (d) => {
          const n = findNode(shown, String(d.key));
          if (!n || n.children || n.isLeaf || n.kind !== 'node') return;
          const children = nest(await lunaApi.treeLevel(n.ref));
          setTree((cur) => cur && withChildren(cur, n.key, children));
        }}
      />
    </TreePanel>
  );
}
