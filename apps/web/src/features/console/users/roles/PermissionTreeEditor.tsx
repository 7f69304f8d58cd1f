import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Space, Spin, Tree } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import { useAction } from '../../../../resource/useAction.ts';
import {
  buildPermissionTree,
  checkedPermissionIds,
  liveTitle,
  permissionIdsToSave,
  treeReadOnly,
  type PermissionNode,
  type PermissionTreeItem,
} from './permissionTree.ts';
import { rolesUrl, type RoleScope } from './roleScope.ts';

/**
 * The permission tree of a role: a checkbox tree from
 * `GET /api/v1/rbac/<scope>-roles/<id>/permissions/tree/`, saved with `PATCH {permissions}`.
 * Builtin roles come back with every node disabled and are shown read-only.
 */
export function PermissionTreeEditor({ scope, roleId }: { scope: RoleScope; roleId: string }) {
  const { t } = useTranslation();
  const canChange = useAppStore((s) => hasPermission(s.perms, `rbac.change_${scope}role`));
  const url = `${rolesUrl(scope)}${roleId}/permissions/tree/`;
  const tree = useQuery({ queryKey: ['permission-tree', url], queryFn: () => http.get<PermissionNode[]>(url) });
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);
  const items = useMemo(() => buildPermissionTree(nodes), [nodes]);
  const [checked, setChecked] = useState<string[]>([]);
  const { busy: saving, run } = useAction();
  useEffect(() => setChecked(checkedPermissionIds(nodes)), [nodes]);
  const checkedSet = useMemo(() => new Set(checked), [checked]);

  if (tree.isPending) return <Spin />;
  if (tree.error) return <Alert type="error" showIcon message={errorMessage(tree.error, t)} />;
  const readOnly = treeReadOnly(nodes) || !canChange;
  const dirty =
    permissionIdsToSave(nodes, checked).join() !== permissionIdsToSave(nodes, checkedPermissionIds(nodes)).join();

  const save = async () => {
    const body = { permissions: permissionIdsToSave(nodes, checked) };
    if (await run(() => http.patch(`${rolesUrl(scope)}${roleId}/`, body), t('roles.tree.saved'))) await tree.refetch();
  };

  return (
    <Card
      title={t('roles.tree.title')}
      data-testid="permission-tree"
      extra={
        !readOnly && (
          <Space>
            <Button disabled={!dirty || saving} onClick={() => setChecked(checkedPermissionIds(nodes))}>
              {t('roles.tree.reset')}
            </Button>
            <Button type="primary" disabled={!dirty} loading={saving} onClick={() => void save()}>
              {t('roles.tree.save')}
            </Button>
          </Space>
        )
      }
    >
      {treeReadOnly(nodes) && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('roles.tree.builtin')} />
      )}
      <Tree
        checkable
        disabled={readOnly}
        defaultExpandedKeys={items.map((i) => i.key)}
        checkedKeys={checked}
        onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
        treeData={items}
        titleRender={(n) => (
          <span title={(n as PermissionTreeItem).code}>{liveTitle(n as PermissionTreeItem, checkedSet)}</span>
        )}
        virtual={false}
      />
    </Card>
  );
}
