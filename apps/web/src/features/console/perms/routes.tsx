import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { lazyPage } from '../../../lib/lazyPage.tsx';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { GlobalOrg } from '../../../lib/GlobalOrg.tsx';
import {
  commandFilterAclRoute,
  commandGroupRoute,
  connectMethodAclRoute,
  loginAclRoute,
  loginAssetAclRoute,
} from './acls/aclRoutes.ts';
import { assetPermissionRoute } from './assetPermissions/permRoute.ts';

/** The page parts of the rule kinds load with the first page of the area opened. */
const pages = () => import('./acls/aclPages.tsx');

/** Pages worked on in the global organisation (login and connect-method rules live outside orgs). */
function inGlobalOrg(route: AppRoute): AppRoute {
  return { ...route, element: <GlobalOrg>{route.element}</GlobalOrg> };
}

const commandAclTabs = lazyPage(
  () => import('./acls/CommandAclTabs.tsx'),
  ({ CommandAclTabs }) => <CommandAclTabs />,
);

function commandAclsRoute(): AppRoute {
  const route = resourceRoute(commandFilterAclRoute, () => pages().then((m) => m.commandFilterAclPages));
  const [list, ...rest] = route.children!;
  return {
    ...route,
    children: [
      {
        ...list,
        // The list route's handle.permissions (view_commandfilteracl) is checked by the layout.
        ...commandAclTabs,
      },
      ...rest,
    ],
  };
}

const cmdGroups = resourceRoute(commandGroupRoute, () => pages().then((m) => m.commandGroupPages));

/** Licensed pages (login-asset and connect-method rules). */
function licensed(route: AppRoute): AppRoute {
  return { ...route, handle: { ...route.handle!, licenseRequired: true } };
}

/** The console's perms app: the asset permissions and the access-control rules. */
export const permsRoutes: AppRoute[] = [
  resourceRoute(assetPermissionRoute, () =>
    import('./assetPermissions/permPages.tsx').then((m) => m.assetPermissionPages),
  ),
  inGlobalOrg(resourceRoute(loginAclRoute, () => pages().then((m) => m.loginAclPages))),
  commandAclsRoute(),
  { ...cmdGroups, handle: { ...cmdGroups.handle!, hidden: true, activeMenu: '/console/perms/cmd-acls' } },
  licensed(resourceRoute(loginAssetAclRoute, () => pages().then((m) => m.loginAssetAclPages))),
  licensed(inGlobalOrg(resourceRoute(connectMethodAclRoute, () => pages().then((m) => m.connectMethodAclPages)))),
];

export const permsIcon = <SafetyCertificateOutlined />;
