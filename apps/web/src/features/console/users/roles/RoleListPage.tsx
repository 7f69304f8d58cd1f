import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../../resource/resourcePaths.ts';
import { TabPage, type TabItem } from '../../../../resource/TabPage.tsx';
import { rolesUrl, type RoleScope } from './roleScope.ts';

import { ROLES_PATH } from './rolesPath.ts';
const paths = resourcePaths(ROLES_PATH);
const isBuiltin = (row: Record<string, unknown>) => row.builtin === true;

/** One scope's roles: links and actions carry `?scope=`. */
function RoleList({ scope }: { scope: RoleScope }) {
  const q = `?scope=${scope}`;
  return (
    <ResourceList
      url={rolesUrl(scope)}
      name={`RoleList-${scope}`}
      urlQuery
      disableOrgsChange
      paths={{
        list: paths.list,
        create: `${paths.create}${q}`,
        update: (id) => `${paths.update(id)}${q}`,
        detail: (id) => `${paths.detail(id)}${q}`,
      }}
      columns={['display_name', 'users_amount', 'builtin', 'comment']}
      columnsShow={{ min: ['display_name', 'actions'] }}
      columnsMeta={{
        display_name: {
          formatter: ({ row }) => (
            <Link to={`${paths.detail(row.id)}${q}`}>{String(row.display_name ?? row.name)}</Link>
          ),
        },
      }}
      searchExclude={['permissions']}
      headerActions={{ hasImport: false, hasBulkDelete: false }}
      rowActions={{ canUpdate: (r) => !isBuiltin(r), canDelete: (r) => !isBuiltin(r) }}
    />
  );
}

/** Roles (licensed): a tab of system roles and one of org roles. */
export function RoleListPage() {
  const { t } = useTranslation();
  const perms = useAppStore((s) => s.perms);
  const items: TabItem[] = [];
  if (hasPermission(perms, 'rbac.view_systemrole'))
    items.push({ name: 'SystemRoles', title: t('roles.tab.SystemRoles'), render: () => <RoleList scope="system" /> });
  if (hasPermission(perms, 'rbac.view_orgrole'))
    items.push({ name: 'OrgRoles', title: t('roles.tab.OrgRoles'), render: () => <RoleList scope="org" /> });
  return <TabPage items={items} />;
}
