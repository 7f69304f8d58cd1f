import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Alert, App, Button, Spin, Tree, Tooltip, type GetRef, type TreeDataNode } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import { useAction } from '../../../../resource/useAction.ts';
import { AddAssetsDialog } from './AddAssetsDialog.tsx';
import { nodeApi } from './nodeApi.ts';
import { NodeMenu } from './NodeMenu.tsx';
import { NodeNameDialog } from './NodeNameDialog.tsx';
import { useNodeMenu, type NodeMenuPerms } from './useNodeMenu.tsx';
import { useNodeTree } from './useNodeTree.ts';
import { ASSET_DRAG_TYPE, canMoveNode, findNode, loadedKeys, type NodeItem } from './treeState.ts';
import styles from './nodeTree.module.css';

export interface NodeTreeProps {
  /** Reloads the tree when the organisation changes. */
  orgKey: string;
  selectedKey?: string;
  onSelect(node: NodeItem | null): void;
  perms: NodeMenuPerms;
  /** Table rows selected now (for "remove selected assets from this node"). */
  selectedAssetIds: string[];
  showCurrent: boolean;
  onShowCurrentChange(v: boolean): void;
  /** After assets moved between nodes (the table reloads). */
  onAssetsChanged(): void;
  height: number;
}

function toData(nodes: NodeItem[]): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title: n.value,
    isLeaf: n.children !== undefined && n.children.length === 0,
    children: n.children ? toData(n.children) : undefined,
  }));
}

/** Node keys dragged from the table are read from the drop event (JSON list of asset ids). */
function draggedAssets(e: DragEvent): string[] {
  try {
    const ids = JSON.parse(e.dataTransfer.getData(ASSET_DRAG_TYPE)) as unknown;
    return Array.isArray(ids) ? ids.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * The asset node tree: lazy children, virtual scrolling, exact counts,
 * right-click menu, nodes dragged onto nodes (move) and table rows dropped on nodes (move, or add
 * with Ctrl/⌘).
 */
export function NodeTree(p: NodeTreeProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const nt = useNodeTree(p.orgKey);
  const [dropKey, setDropKey] = useState<string | null>(null);
  const data = useMemo(() => toData(nt.tree), [nt.tree]);
  const afterChange = async () => {
    await nt.refresh();
    p.onAssetsChanged();
  };
  const treeRef = useRef<GetRef<typeof Tree>>(null);
  // A node just created is scrolled into view once its parent shows it (the tree is virtual: a
  // child sorted below the visible rows would otherwise not be seen at all).
  const [scrollKey, setScrollKey] = useState<string>();
  useEffect(() => {
    if (!scrollKey || !findNode(nt.tree, scrollKey)) return;
    treeRef.current?.scrollTo({ key: scrollKey, align: 'auto' });
    setScrollKey(undefined);
  }, [scrollKey, nt.tree, nt.expanded]);
  const afterCreate = async (parent: NodeItem, childKey: string) => {
    await nt.refresh();
    await nt.loadChildren(parent.key);
    nt.setExpanded((e) => (e.includes(parent.key) ? e : [...e, parent.key]));
    setScrollKey(childKey);
  };
  const menu = useNodeMenu({
    ...p,
    tree: nt.tree,
    afterChange,
    afterCreate,
    onRemoved: (n) => {
      if (n.key === p.selectedKey) p.onSelect(null);
    },
  });

  const { run: write } = useAction();
  const run = async (action: () => Promise<unknown>, ok: string) => {
    if (await write(action, ok)) await afterChange();
  };

  const dropAssets = (e: DragEvent, node: NodeItem) => {
    setDropKey(null);
    const ids = draggedAssets(e);
    if (!ids.length || !p.perms.changeAssets) return;
    e.preventDefault();
    const add = e.ctrlKey || e.metaKey;
    void run(
      () => nodeApi.assets(node.id, add ? 'add' : 'replace', ids),
      t(add ? 'assetList.tree.assetsAdded' : 'assetList.tree.assetsMoved', { count: ids.length, name: node.value }),
    );
  };

  const title = (d: TreeDataNode) => {
    const n = findNode(nt.tree, String(d.key));
    if (!n) return null;
    return (
      <span
        className={dropKey === n.key ? `${styles.title} ${styles.dropTarget}` : styles.title}
        data-testid="node-title"
        data-key={n.key}
        onDragOver={(e) => {
          if (!e.dataTransfer.types.includes(ASSET_DRAG_TYPE)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = e.ctrlKey || e.metaKey ? 'copy' : 'move';
          if (dropKey !== n.key) setDropKey(n.key);
        }}
        onDragLeave={() => setDropKey(null)}
        onDrop={(e) => dropAssets(e, n)}
      >
        {n.value} <span className={styles.count}>({n.count})</span>
      </span>
    );
  };

  return (
    <div className={styles.box} data-testid="node-tree">
      <div className={styles.head}>
        <span>{t('assetList.tree.title')}</span>
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
      ) : (
        <Tree
          ref={treeRef}
          virtual
          height={p.height}
          blockNode
          treeData={data}
          titleRender={title}
          expandedKeys={nt.expanded}
          loadedKeys={loadedKeys(nt.tree)}
          onExpand={(keys) => nt.setExpanded(keys.map(String))}
          loadData={async (d) => {
            if (!findNode(nt.tree, String(d.key))?.children) await nt.loadChildren(String(d.key));
          }}
          selectedKeys={p.selectedKey ? [p.selectedKey] : []}
          onSelect={(keys) => p.onSelect(keys.length ? (findNode(nt.tree, String(keys[0])) ?? null) : null)}
          onRightClick={({ event, node }) => {
            event.preventDefault();
            const n = findNode(nt.tree, String(node.key));
            if (n) menu.open(n, event.clientX, event.clientY);
          }}
          draggable={
            p.perms.changeNode
              ? { icon: false, nodeDraggable: (d) => Boolean(findNode(nt.tree, String(d.key))?.parentKey) }
              : false
          }
          allowDrop={({ dragNode, dropNode, dropPosition }) => {
            const s = findNode(nt.tree, String(dragNode.key));
            const tg = findNode(nt.tree, String(dropNode.key));
            return dropPosition === 0 && Boolean(s && tg && canMoveNode(s, tg));
          }}
          onDrop={({ dragNode, node, dropToGap }) => {
            const s = findNode(nt.tree, String(dragNode.key));
            const tg = findNode(nt.tree, String(node.key));
            if (!s || !tg || dropToGap || !canMoveNode(s, tg)) return;
            modal.confirm({
              title: t('assetList.tree.moveTitle'),
              content: t('assetList.tree.moveConfirm', { node: s.value, target: tg.value }),
              okText: t('resource.ok'),
              cancelText: t('resource.cancel'),
              onOk: () => run(() => nodeApi.moveNodes(tg.id, [s.id]), t('assetList.tree.moved')),
            });
          }}
        />
      )}
      {menu.state && (
        <NodeMenu x={menu.state.x} y={menu.state.y} items={menu.items} onClick={menu.onClick} onClose={menu.close} />
      )}
      <NodeNameDialog {...menu.nameDialog} />
      <AddAssetsDialog {...menu.addDialog} />
    </div>
  );
}
