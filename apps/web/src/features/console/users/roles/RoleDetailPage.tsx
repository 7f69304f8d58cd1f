import { useParams } from 'react-router';
import { Alert, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import { ResourceDetail } from '../../../../resource/ResourceDetail.tsx';
import { PermissionTreeEditor } from './PermissionTreeEditor.tsx';
import { RoleUsers } from './RoleUsers.tsx';
import { rolesUrl, useRoleScope } from './roleScope.ts';

const isBuiltin = (role: Record<string, unknown>) => role.builtin === true;

/** A role: its fields with the permission tree, and the users bound to it. */
export function RoleDetailPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { scope, error } = useRoleScope(id);
  if (error) return <Alert type="error" showIcon message={errorMessage(error, t)} />;
  if (!scope || !id) return <Spin />;
  return (
    <ResourceDetail
      key={id}
      url={rolesUrl(scope)}
      id={id}
      kind="roles.kind.Role"
      getObjectName={(r) => String(r.display_name ?? r.name ?? '')}
      canUpdate={(r) => !isBuiltin(r)}
      canDelete={(r) => !isBuiltin(r)}
      tabs={[
        {
          name: 'RoleInfo',
          title: 'roles.tab.RoleInfo',
          render: (role, { meta }) => (
            <Space direction="vertical" size={16} style={{ width: '100%' }}>
              <DetailCard
                title="roles.card.basic"
                object={role}
                meta={meta}
                fields={[
                  'display_name',
                  'scope',
                  'builtin',
                  'users_amount',
                  'created_by',
                  'date_created',
                  'date_updated',
                  'comment',
                ]}
              />
              <PermissionTreeEditor scope={scope} roleId={id} />
            </Space>
          ),
        },
        {
          name: 'RoleUsers',
          title: 'roles.tab.RoleUsers',
          hidden: () => !hasPermission(useAppStore.getState().perms, `rbac.view_${scope}rolebinding`),
          render: () => <RoleUsers scope={scope} roleId={id} />,
        },
      ]}
    />
  );
}
