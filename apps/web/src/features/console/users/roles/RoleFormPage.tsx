import { useParams, useSearchParams } from 'react-router';
import { Alert, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import { ResourceForm } from '../../../../resource/ResourceForm.tsx';
import { ROLES_PATH } from './rolesPath.ts';
import { rolesUrl, useRoleScope } from './roleScope.ts';

/**
 * Create or update a role of one scope: name and comment; its
 * permissions are ticked in the tree on the detail page, where a new role opens after saving.
 */
export function RoleFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const [params] = useSearchParams();
  const { scope, error } = useRoleScope(id);
  if (error) return <Alert type="error" showIcon message={errorMessage(error, t)} />;
  if (!scope) return <Spin />;
  return (
    <>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('roles.form.permissionsHint')} />
      <ResourceForm
        key={`${scope}:${id ?? 'new'}:${params.get('clone_from') ?? ''}`}
        url={rolesUrl(scope)}
        id={id}
        groups={[
          { title: 'roles.group.Basic', fields: ['name'] },
          { title: 'roles.group.Other', fields: ['comment'] },
        ]}
        successRoute={(saved) => `${ROLES_PATH}/${saved.id}?scope=${scope}`}
      />
    </>
  );
}
