import { useState } from 'react';
import { Alert, Button, Form, Modal } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { hasPermission, ROOT_ORG_ID } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { RemoteSelect } from '../../../resource/RemoteSelect.tsx';
import type { ResourceObject } from '../../../resource/types.ts';
import { useAction } from '../../../resource/useAction.ts';

const ids = (v: string | string[] | null) => (Array.isArray(v) ? v : v ? [v] : []);
const userLabel = (o: ResourceObject) => `${String(o.name)}(${String(o.username)})`;
const roleLabel = (o: ResourceObject) => String(o.display_name ?? o.name ?? o.id);

/**
 * "Invite" in the user list's header: existing users (from the global suggestions) join the
 * current organisation with the chosen org roles (`POST /api/v1/users/users/invite/`). Offered
 * with a licence (organisations), outside the global org, to holders of `users.invite_user`.
 */
export function InviteUsers({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const org = useAppStore((s) => s.currentOrg);
  const licensed = useAppStore((s) =>
    Boolean(s.publicSettings?.XPACK_ENABLED && s.publicSettings.XPACK_LICENSE_IS_VALID),
  );
  const may = useAppStore((s) => hasPermission(s.perms, 'users.invite_user'));
  const [open, setOpen] = useState(false);
  const [users, setUsers] = useState<string[]>([]);
  const [roles, setRoles] = useState<string[]>([]);
  const action = useAction({ inlineError: true });
  if (!licensed || !may || !org || org.id === ROOT_ORG_ID) return null;

  const close = () => {
    setOpen(false);
    setUsers([]);
    setRoles([]);
    action.setError(null);
  };
  const submit = async () => {
    const body = { users, org_roles: roles };
    if (await action.run(() => http.post('/api/v1/users/users/invite/', body), t('users.invite.done'))) {
      close();
      onDone();
    }
  };

  return (
    <>
      <Button icon={<UserAddOutlined />} onClick={() => setOpen(true)} data-testid="list-invite">
        {t('users.invite.action')}
      </Button>
      <Modal
        open={open}
        title={t('users.invite.title')}
        okText={t('users.invite.ok')}
        cancelText={t('users.invite.cancel')}
        okButtonProps={{ disabled: !users.length || !roles.length, loading: action.busy }}
        onOk={() => void submit()}
        onCancel={close}
        destroyOnHidden
      >
        <Form layout="vertical" data-testid="invite-dialog">
          <Form.Item label={t('users.invite.users')} htmlFor="invite-users" required>
            <RemoteSelect
              id="invite-users"
              multiple
              url="/api/v1/users/users/suggestions/"
              optionLabel={userLabel}
              value={users}
              onChange={(v) => setUsers(ids(v))}
            />
          </Form.Item>
          <Form.Item label={t('users.invite.orgRoles')} htmlFor="invite-org-roles" required>
            <RemoteSelect
              id="invite-org-roles"
              multiple
              url="/api/v1/rbac/org-roles/"
              optionLabel={roleLabel}
              value={roles}
              onChange={(v) => setRoles(ids(v))}
            />
          </Form.Item>
        </Form>
        {action.error && <Alert type="error" showIcon title={action.error} />}
      </Modal>
    </>
  );
}
