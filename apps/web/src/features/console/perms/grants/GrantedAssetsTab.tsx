import { useMemo } from 'react';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../../resource/resourcePaths.ts';
import { NodeTreeList } from '../../assets/nodeTree/NodeTreeList.tsx';
import { ASSET_PERMISSIONS_PATH, ASSET_PERMISSIONS_URL } from '../assetPermissions/permRoute.ts';
import { accountsCell, actionsCell } from '../assetPermissions/permFormatters.tsx';
import { GRANTED_ASSET_FIELDS, GRANTED_ASSET_LABELS, grantUrls } from './grantedAssets.ts';

const assetPaths = resourcePaths('/console/assets/assets');
const permPaths = resourcePaths(ASSET_PERMISSIONS_PATH);

/**
 * A user's (or a user group's) granted assets on its detail page: the granted node tree beside the
 * granted assets, then the permission rules that name the user or the group.
 */
export function GrantedAssetsTab({ who }: { who: { user: string } | { group: string } }) {
  const { t } = useTranslation();
  const urls = useMemo(() => grantUrls(who), [who]);
  const id = 'user' in who ? who.user : who.group;
  return (
    <div data-testid="granted-assets-tab">
      <NodeTreeList
        source={urls.tree}
        treeKey={id}
        treeTitle="perms.grants.tree"
        nodeUrl={(n) => urls.nodeAssets(n.id)}
        list={{
          url: urls.assets,
          name: 'GrantedAssetList',
          paths: assetPaths,
          // The rows are assets: their links follow the asset permissions.
          permissions: { app: 'assets', resource: 'asset' },
          fieldsGet: GRANTED_ASSET_FIELDS,
          columnsMeta: { ...GRANTED_ASSET_LABELS, actions: { has: false } },
          columnsShow: { default: ['name', 'address', 'platform', 'connectivity', 'is_active'], min: ['name'] },
          noSelection: true,
          headerActions: { hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false },
          rowActions: { hasUpdate: false, hasDelete: false, hasClone: false },
        }}
      />
      <Card title={t('perms.grants.rules')} style={{ marginTop: 16 }}>
        <ResourceList
          url={`${ASSET_PERMISSIONS_URL}?${'user' in who ? 'user_id' : 'user_group_id'}=${id}`}
          name="GrantRuleList"
          paths={permPaths}
          columnsExtra={['action']}
          columnsShow={{ default: ['name', 'accounts', 'action', 'is_valid', 'date_expired'], min: ['name'] }}
          columnsMeta={{
            accounts: { formatter: accountsCell },
            action: { formatter: actionsCell, label: 'perms.field.action' },
          }}
          noSelection
          headerActions={{ hasCreate: false, hasImport: false, hasBulkDelete: false }}
          rowActions={{ hasDelete: false, hasClone: false }}
        />
      </Card>
    </div>
  );
}
