import { useState } from 'react';
import { Button, Modal } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { useAction } from '../../../../resource/useAction.ts';
import { RemoteSelect } from '../../../../resource/RemoteSelect.tsx';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { bindingsUrl, type RoleScope } from './roleScope.ts';

const USER_OPTIONS = '/api/v1/users/users/?fields_size=mini&order=name';
const userLabel = (u: { name?: unknown; username?: unknown }) => `${String(u.name ?? '')}(${String(u.username ?? '')})`;

/**
 * The users bound to a role (RoleUsers): the `<scope>-role-bindings/?role=`
 * list with removal, and "add members" posting one binding per chosen user.
 */
export function RoleUsers({ scope, roleId }: { scope: RoleScope; roleId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canAdd = useAppStore((s) => hasPermission(s.perms, `rbac.add_${scope}rolebinding`));
  const [open, setOpen] = useState(false);
  const [users, setUsers] = useState<string[]>([]);
  const { busy: saving, run } = useAction();
  const url = `${bindingsUrl(scope)}?role=${roleId}`;

  const add = async () => {
    const ok = await run(async () => {
      for (const user of users) await http.post(bindingsUrl(scope), { user, role: roleId });
    }, t('roles.users.added'));
    if (ok) {
      setOpen(false);
      setUsers([]);
    }
    await queryClient.invalidateQueries({ queryKey: ['resource-list', url] });
  };

  return (
    <>
      {canAdd && (
        <Button
          icon={<UserAddOutlined />}
          type="primary"
          style={{ marginBottom: 12 }}
          onClick={() => setOpen(true)}
          data-testid="role-add-users"
        >
          {t('roles.users.add')}
        </Button>
      )}
      <ResourceList
        url={url}
        name={`RoleUsers-${scope}`}
        paths={null}
        columns={['user', 'scope', 'date_created']}
        columnsShow={{ min: ['user', 'actions'] }}
        searchExclude={['role', 'scope']}
        headerActions={{ hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false }}
        rowActions={{ hasUpdate: false, hasClone: false }}
      />
      <Modal
        open={open}
        title={t('roles.users.add')}
        okText={t('roles.users.confirm')}
        okButtonProps={{ disabled: !users.length, loading: saving }}
        onOk={() => void add()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <RemoteSelect
          url={USER_OPTIONS}
          multiple
          value={users}
          onChange={(v) => setUsers(Array.isArray(v) ? v : v ? [v] : [])}
          optionLabel={userLabel}
          id="role-users-select"
        />
      </Modal>
    </>
  );
}
