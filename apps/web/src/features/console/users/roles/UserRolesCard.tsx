import { useState } from 'react';
import { Alert, Button, Card, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission, ROOT_ORG_ID } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { useAction } from '../../../../resource/useAction.ts';
import { RemoteSelect, type SelectOption } from '../../../../resource/RemoteSelect.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import { rolesUrl } from './roleScope.ts';

interface RoleRef {
  id: string;
  name?: string;
  display_name?: string;
}

const refs = (v: unknown): RoleRef[] => (Array.isArray(v) ? (v as RoleRef[]) : []);
const option = (r: RoleRef): SelectOption => ({ value: r.id, label: r.display_name ?? r.name ?? r.id });
const label = (o: ResourceObject) => String(o.display_name ?? o.name ?? o.id);
const ids = (v: string | string[] | null) => (Array.isArray(v) ? v : v ? [v] : []);

/**
 * A user's roles on the user detail page (issue 6): the system roles and the roles in the current
 * organisation, saved with `PATCH /api/v1/users/users/<id>/ {system_roles, org_roles}`.
 */
export function UserRolesCard({ user, reload }: { user: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const org = useAppStore((s) => s.currentOrg);
  const licensed = useAppStore((s) =>
    Boolean(s.publicSettings?.XPACK_ENABLED && s.publicSettings.XPACK_LICENSE_IS_VALID),
  );
  const canChange = useAppStore((s) => hasPermission(s.perms, 'users.change_user'));
  const showOrg = licensed && org !== null && org.id !== ROOT_ORG_ID;
  const [system, setSystem] = useState(() => refs(user.system_roles).map((r) => r.id));
  const [orgRoles, setOrgRoles] = useState(() => refs(user.org_roles).map((r) => r.id));
  const { busy: saving, run } = useAction();
  const disabled = !canChange || saving;

  const save = async () => {
    const body = { system_roles: system, ...(showOrg ? { org_roles: orgRoles } : {}) };
    if (await run(() => http.patch(`/api/v1/users/users/${user.id}/`, body), t('roles.userRoles.saved'))) reload();
  };

  return (
    <Card
      title={t('roles.userRoles.title')}
      data-testid="user-roles"
      extra={
        canChange && (
          <Button type="primary" loading={saving} disabled={!system.length} onClick={() => void save()}>
            {t('roles.userRoles.save')}
          </Button>
        )
      }
    >
      <Form layout="vertical">
        <Form.Item label={t('roles.userRoles.system')} htmlFor="user-system-roles">
          <RemoteSelect
            id="user-system-roles"
            url={rolesUrl('system')}
            multiple
            value={system}
            onChange={(v) => setSystem(ids(v))}
            seed={refs(user.system_roles).map(option)}
            optionLabel={label}
            disabled={disabled}
          />
        </Form.Item>
        {showOrg && (
          <Form.Item label={t('roles.userRoles.org', { org: org.name })} htmlFor="user-org-roles">
            <RemoteSelect
              id="user-org-roles"
              url={rolesUrl('org')}
              multiple
              value={orgRoles}
              onChange={(v) => setOrgRoles(ids(v))}
              seed={refs(user.org_roles).map(option)}
              optionLabel={label}
              disabled={disabled}
            />
          </Form.Item>
        )}
      </Form>
      {showOrg && <Alert type="info" showIcon message={t('roles.userRoles.orgHint')} />}
    </Card>
  );
}
