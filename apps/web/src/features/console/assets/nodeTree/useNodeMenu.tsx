import { useCallback, useState } from 'react';
import { App, type MenuProps } from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  MinusCircleOutlined,
  PlusCircleOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../../../resource/useAction.ts';
import type { AddAssetsDialogProps } from './AddAssetsDialog.tsx';
import { nodeApi } from './nodeApi.ts';
import type { NodeNameDialogProps } from './NodeNameDialog.tsx';
import type { NodeItem } from './treeState.ts';

/** What the caller may do in the tree (hidden entirely in the root organisation). */
export interface NodeMenuPerms {
  inRootOrg: boolean;
  addNode: boolean;
  changeNode: boolean;
  deleteNode: boolean;
  changeAssets: boolean;
}

interface Options {
  perms: NodeMenuPerms;
  tree: NodeItem[];
  selectedAssetIds: string[];
  showCurrent: boolean;
  onShowCurrentChange(v: boolean): void;
  afterChange(): Promise<void>;
  /** After a child was created: show it (expand the parent, scroll to the child). */
  afterCreate(parent: NodeItem, childKey: string): Promise<void>;
  onRemoved(node: NodeItem): void;
}

type Dialog = { kind: 'create' | 'rename' | 'add'; node: NodeItem } | null;

/** The right-click menu of the node tree: items, their requests and dialogs. */
export function useNodeMenu(o: Options) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [state, setState] = useState<{ node: NodeItem; x: number; y: number } | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = useCallback(() => setState(null), []);
  const p = o.perms;
  const node = state?.node;
  const isRoot = node ? node.parentKey === '' : false;

  const items: MenuProps['items'] = [
    ...(p.inRootOrg
      ? []
      : ([
          p.addNode && { key: 'create', icon: <PlusOutlined />, label: t('assetList.tree.createChild') },
          p.changeNode && {
            key: 'rename',
            icon: <EditOutlined />,
            label: t('assetList.tree.rename'),
            disabled: isRoot,
          },
          p.deleteNode && {
            key: 'delete',
            icon: <DeleteOutlined />,
            danger: true,
            label: t('assetList.tree.delete'),
            disabled: isRoot,
          },
          { type: 'divider' as const },
          p.changeAssets && { key: 'addAssets', icon: <PlusCircleOutlined />, label: t('assetList.tree.addAssets') },
          p.changeAssets && {
            key: 'removeAssets',
            icon: <MinusCircleOutlined />,
            label: t('assetList.tree.removeAssets', { count: o.selectedAssetIds.length }),
            disabled: !o.selectedAssetIds.length,
          },
        ].filter(Boolean) as NonNullable<MenuProps['items']>)),
    {
      key: 'showCurrent',
      icon: <EyeOutlined />,
      label: t(o.showCurrent ? 'assetList.tree.showAll' : 'assetList.tree.showCurrent'),
    },
    { key: 'refresh', icon: <ReloadOutlined />, label: t('assetList.tree.refresh') },
  ];

  const { run: write } = useAction();
  const act = async (action: () => Promise<unknown>, ok: string) => {
    if (await write(action, ok)) await o.afterChange();
  };

  const onClick = (key: string) => {
    if (!node) return;
    if (key === 'create' || key === 'rename') setDialog({ kind: key, node });
    else if (key === 'addAssets') setDialog({ kind: 'add', node });
    else if (key === 'delete') {
      modal.confirm({
        title: t('assetList.tree.delete'),
        content: t('assetList.tree.deleteConfirm', { name: node.value }),
        okType: 'danger',
        okText: t('resource.delete.ok'),
        cancelText: t('resource.cancel'),
        onOk: () =>
          act(async () => {
            await nodeApi.remove(node.id);
            o.onRemoved(node);
          }, t('assetList.tree.deleted')),
      });
    } else if (key === 'removeAssets') {
      const ids = o.selectedAssetIds;
      modal.confirm({
        title: t('assetList.tree.removeAssets', { count: ids.length }),
        content: t('assetList.tree.removeConfirm', { count: ids.length, name: node.value }),
        okText: t('resource.ok'),
        cancelText: t('resource.cancel'),
        onOk: () =>
          act(() => nodeApi.assets(node.id, 'remove', ids), t('assetList.tree.assetsRemoved', { count: ids.length })),
      });
    } else if (key === 'showCurrent') o.onShowCurrentChange(!o.showCurrent);
    else if (key === 'refresh') void o.afterChange();
  };

  const target = dialog?.node;
  const nameDialog: NodeNameDialogProps = {
    open: dialog?.kind === 'create' || dialog?.kind === 'rename',
    title: dialog?.kind === 'rename' ? t('assetList.tree.rename') : t('assetList.tree.createChild'),
    initial: dialog?.kind === 'rename' ? (target?.value ?? '') : '',
    onSave: async (value) => {
      if (!target) return;
      const created = dialog?.kind === 'rename' ? undefined : await nodeApi.createChild(target.id, value);
      if (!created) await nodeApi.rename(target.id, value);
      void message.success(t('assetList.tree.saved'));
      await (created ? o.afterCreate(target, created.key) : o.afterChange());
    },
    onClose: () => setDialog(null),
  };
  const addDialog: AddAssetsDialogProps = {
    open: dialog?.kind === 'add',
    nodeName: target?.value ?? '',
    onSave: async (ids) => {
      if (!target) return;
      await nodeApi.assets(target.id, 'add', ids);
      void message.success(t('assetList.tree.assetsAdded', { count: ids.length, name: target.value }));
      await o.afterChange();
    },
    onClose: () => setDialog(null),
  };

  return {
    state,
    items,
    open: (n: NodeItem, x: number, y: number) => setState({ node: n, x, y }),
    close,
    onClick,
    nameDialog,
    addDialog,
  };
}
