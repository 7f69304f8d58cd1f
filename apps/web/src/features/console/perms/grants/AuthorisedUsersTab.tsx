import { useState } from 'react';
import { Card, Col, Modal, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResourceList, type ResourceListProps } from '../../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../../resource/resourcePaths.ts';
import type { ResourceObject } from '../../../../resource/types.ts';
import { m2m } from '../../../../resource/formatters.tsx';
import { ASSET_PERMISSIONS_PATH, ASSET_PERMISSIONS_URL } from '../assetPermissions/permRoute.ts';
import { accountsCell, actionsCell } from '../assetPermissions/permFormatters.tsx';

const A = '/api/v1/assets/assets';
const permPaths = resourcePaths(ASSET_PERMISSIONS_PATH);
const plain = (fields: string[]) => Object.fromEntries(fields.map((f) => [f, { type: 'string' }]));
const readOnly: Partial<ResourceListProps> = {
  noSelection: true,
  headerActions: { hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false },
};

/**
 * An asset's authorisations: the permission rules covering it (directly or through an ancestor
 * node), then its authorised users and user groups (`perm-users/`, `perm-user-groups/` of the assets
 * API); "Permissions" shows the rules that grant the asset to that user or group.
 */
export function AuthorisedUsersTab({ asset }: { asset: ResourceObject }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<{ url: string; title: string } | null>(null);
  const open = (kind: 'perm-users' | 'perm-user-groups', row: ResourceObject) =>
    setShown({ url: `${A}/${asset.id}/${kind}/${row.id}/permissions/`, title: String(row.name ?? row.username) });
  return (
    <Row gutter={[16, 16]} data-testid="authorised-users-tab">
      <Col span={24}>
        <Card title={t('perms.grants.rulesOfAsset')}>
          <ResourceList
            {...readOnly}
            url={`${ASSET_PERMISSIONS_URL}?asset_id=${asset.id}`}
            name="AssetPermissionsOfAsset"
            paths={permPaths}
            columnsExtra={['action']}
            columnsShow={{
              default: ['name', 'users', 'user_groups', 'accounts', 'action', 'is_valid', 'date_expired'],
              min: ['name'],
            }}
            columnsMeta={{
              users: { formatter: m2m },
              user_groups: { formatter: m2m },
              accounts: { formatter: accountsCell },
              action: { label: 'perms.field.action', formatter: actionsCell },
              actions: { has: false },
            }}
          />
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <ResourceList
          {...readOnly}
          url={`${A}/${asset.id}/perm-users/`}
          name="AssetPermUserList"
          paths={resourcePaths('/console/users/users')}
          fieldsGet={plain(['name', 'username', 'source', 'is_valid'])}
          columns={['name', 'username', 'source', 'is_valid']}
          columnsMeta={{
            name: { label: 'perms.field.name' },
            username: { label: 'perms.field.username' },
            source: { label: 'perms.field.source', formatter: ({ value }) => objectLabel(value) },
            is_valid: {
              label: 'perms.field.isValid',
              formatter: ({ value }) => (value ? t('resource.yes') : t('resource.no')),
            },
          }}
          rowActions={{
            hasUpdate: false,
            hasDelete: false,
            hasClone: false,
            extra: [{ name: 'perms', title: 'perms.grants.viewRules', onClick: (row) => open('perm-users', row) }],
          }}
        />
      </Col>
      <Col xs={24} lg={10}>
        <ResourceList
          {...readOnly}
          url={`${A}/${asset.id}/perm-user-groups/`}
          name="AssetPermGroupList"
          paths={resourcePaths('/console/users/groups')}
          fieldsGet={plain(['name'])}
          columns={['name']}
          columnsMeta={{ name: { label: 'perms.field.groupName' } }}
          rowActions={{
            hasUpdate: false,
            hasDelete: false,
            hasClone: false,
            extra: [
              { name: 'perms', title: 'perms.grants.viewRules', onClick: (row) => open('perm-user-groups', row) },
            ],
          }}
        />
      </Col>
      <Modal
        open={Boolean(shown)}
        title={shown?.title}
        width={960}
        footer={null}
        onCancel={() => setShown(null)}
        destroyOnHidden
      >
        {shown && (
          <ResourceList
            {...readOnly}
            url={shown.url}
            name="AssetPermRuleList"
            paths={permPaths}
            fieldsGet={plain(['name', 'accounts', 'is_valid', 'date_expired'])}
            columns={['name', 'accounts', 'action', 'date_expired']}
            columnsMeta={{
              name: { label: 'perms.field.name' },
              accounts: { label: 'perms.field.accounts', formatter: accountsCell },
              action: { label: 'perms.field.action', formatter: actionsCell },
              date_expired: { label: 'perms.field.dateExpired' },
              actions: { has: false },
            }}
            rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
          />
        )}
      </Modal>
    </Row>
  );
}

function objectLabel(v: unknown): string {
  if (v && typeof v === 'object')
    return String((v as { label?: unknown }).label ?? (v as { value?: unknown }).value ?? '-');
  return v === null || v === undefined ? '-' : String(v);
}
