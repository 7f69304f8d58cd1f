import { SafetyCertificateOutlined } from '@ant-design/icons';
import { hasPermission } from '@gatehouse/contract';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { useAppStore } from '../../../lib/appStore.ts';
import { ForbiddenPage } from '../../../lib/ForbiddenPage.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { TabPage } from '../../../resource/TabPage.tsx';
import { GlobalOrg } from '../../../lib/GlobalOrg.tsx';
import { useTranslation } from 'react-i18next';
import {
  commandFilterAclPages,
  commandGroupPages,
  connectMethodAclPages,
  loginAclPages,
  loginAssetAclPages,
} from './acls/aclPages.tsx';

/** Pages worked on in the global organisation (login and connect-method rules live outside orgs). */
function inGlobalOrg(route: AppRoute): AppRoute {
  return { ...route, element: <GlobalOrg>{route.element}</GlobalOrg> };
}

const CMD_GROUPS = '/console/perms/cmd-groups';

/** `/console/perms/cmd-acls/`: command filters with the command groups as a second tab. */
function CommandAclTabs() {
  const { t } = useTranslation();
  const mayViewGroups = hasPermission(
    useAppStore((s) => s.perms),
    'acls.view_commandgroup',
  );
  return (
    <TabPage
      items={[
        {
          name: 'CommandFilterAclList',
          title: t('acls.route.CommandFilterAclList'),
          render: () => <ResourceList url={commandFilterAclPages.url} {...commandFilterAclPages.list} />,
        },
        {
          name: 'CommandGroupList',
          title: t('acls.route.CommandGroupList'),
          render: () =>
            mayViewGroups ? (
              <ResourceList url={commandGroupPages.url} paths={resourcePaths(CMD_GROUPS)} {...commandGroupPages.list} />
            ) : (
              <ForbiddenPage />
            ),
        },
      ]}
    />
  );
}

function commandAclsRoute(): AppRoute {
  const route = resourceRoute(commandFilterAclPages);
  const [list, ...rest] = route.children!;
  return {
    ...route,
    children: [
      {
        ...list,
        // The list route's handle.permissions (view_commandfilteracl) is checked by the layout.
        element: <CommandAclTabs />,
      },
      ...rest,
    ],
  };
}

const cmdGroups = resourceRoute(commandGroupPages);

/** Licensed pages (login-asset and connect-method rules). */
function licensed(route: AppRoute): AppRoute {
  return { ...route, handle: { ...route.handle!, licenseRequired: true } };
}

/** The console's perms app: the access-control rules. */
export const permsRoutes: AppRoute[] = [
  inGlobalOrg(resourceRoute(loginAclPages)),
  commandAclsRoute(),
  { ...cmdGroups, handle: { ...cmdGroups.handle!, hidden: true, activeMenu: '/console/perms/cmd-acls' } },
  licensed(resourceRoute(loginAssetAclPages)),
  licensed(inGlobalOrg(resourceRoute(connectMethodAclPages))),
];

export const permsIcon = <SafetyCertificateOutlined />;
