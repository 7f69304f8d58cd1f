import { Tree, type TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACTION_TREE, PERM_ACTIONS, actionNames, type ActionTreeNode } from './permActions.ts';

export interface ActionsFieldProps {
  value?: unknown;
  onChange?(value: string[]): void;
  disabled?: boolean;
}

/** The actions as a checkbox tree (connect; transfer: upload, download, delete; clipboard: copy, paste). */
export function ActionsField({ value, onChange, disabled }: ActionsFieldProps) {
  const { t } = useTranslation();
  const toData = (nodes: ActionTreeNode[]): TreeDataNode[] =>
    nodes.map((n) => ({
      key: n.key,
      title: <span data-testid={`perm-action-${n.key}`}>{t(`perms.action.${n.key}`)}</span>,
      children: n.children ? toData(n.children) : undefined,
    }));
  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      disabled={disabled}
      treeData={toData(ACTION_TREE)}
      checkedKeys={actionNames(value)}
      onCheck={(keys) => {
        const checked = (Array.isArray(keys) ? keys : keys.checked).map(String);
        onChange?.(PERM_ACTIONS.filter((a) => checked.includes(a)));
      }}
      data-testid="perm-actions-tree"
    />
  );
}
