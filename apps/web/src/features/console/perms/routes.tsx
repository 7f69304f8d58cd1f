import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../app/routeTypes.ts';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { TabPage } from '../../../resource/TabPage.tsx';
import { GlobalOrg } from '../../../shell/GlobalOrg.tsx';
import { RequirePermission } from '../../../shell/RequirePermission.tsx';
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

/** `/console/perms/cmd-acls/`: command filters with the command groups as a second tab (console-reference §3.11). */
function CommandAclTabs() {
  const { t } = useTranslation();
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
          render: () => (
            <RequirePermission perms="acls.view_commandgroup">
              <ResourceList url={commandGroupPages.url} paths={resourcePaths(CMD_GROUPS)} {...commandGroupPages.list} />
            </RequirePermission>
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
        element: (
          <RequirePermission perms="acls.view_commandfilteracl">
            <CommandAclTabs />
          </RequirePermission>
        ),
      },
      ...rest,
    ],
  };
}

const cmdGroups = resourceRoute(commandGroupPages);

/** Licensed pages (console-reference §3.11: login-asset and connect-method rules). */
function licensed(route: AppRoute): AppRoute {
  return { ...route, handle: { ...route.handle!, licenseRequired: true } };
}

/** The console's perms app: the access-control rules (issue 16). */
export const permsRoutes: AppRoute[] = [
  inGlobalOrg(resourceRoute(loginAclPages)),
  commandAclsRoute(),
  { ...cmdGroups, handle: { ...cmdGroups.handle!, hidden: true, activeMenu: '/console/perms/cmd-acls' } },
  licensed(resourceRoute(loginAssetAclPages)),
  licensed(inGlobalOrg(resourceRoute(connectMethodAclPages))),
];

export const permsIcon = <SafetyCertificateOutlined />;
