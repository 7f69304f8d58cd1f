import { Outlet } from 'react-router';
import { SafetyOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../../lib/routeTypes.ts';
import { resourcePaths, ResourcePathsContext } from '../../../../resource/resourcePaths.ts';
import { GlobalOrg } from '../../../../lib/GlobalOrg.tsx';
import { lazyPage } from '../../../../lib/lazyPage.tsx';
import { ROLES_PATH } from './rolesPath.ts';

const VIEW = 'rbac.view_orgrole | rbac.view_systemrole';
const ADD = 'rbac.add_orgrole | rbac.add_systemrole';
const CHANGE = 'rbac.change_orgrole | rbac.change_systemrole';

/** Roles are worked on in the global organisation, left again with the roles pages. */
function RolesScope() {
  return (
    <GlobalOrg>
      <ResourcePathsContext.Provider value={resourcePaths(ROLES_PATH)}>
        <Outlet />
      </ResourcePathsContext.Provider>
    </GlobalOrg>
  );
}

const roleList = lazyPage(
  () => import('./RoleListPage.tsx'),
  ({ RoleListPage }) => <RoleListPage />,
);
const roleForm = lazyPage(
  () => import('./RoleFormPage.tsx'),
  ({ RoleFormPage }) => <RoleFormPage />,
);
const roleDetail = lazyPage(
  () => import('./RoleDetailPage.tsx'),
  ({ RoleDetailPage }) => <RoleDetailPage />,
);

/** `/console/users/roles/*`: licensed, in the global org, the org selector locked. */
export const rolesRoute: AppRoute = {
  path: 'roles',
  element: <RolesScope />,
  handle: {
    title: 'roles.route.RoleList',
    icon: <SafetyOutlined />,
    permissions: [VIEW],
    licenseRequired: true,
    disableOrgsChange: true,
    app: 'rbac',
    resource: 'role',
  },
  children: [
    {
      index: true,
      handle: { title: 'roles.route.RoleList', name: 'RoleList', permissions: [VIEW] },
      ...roleList,
    },
    {
      path: 'create',
      handle: { title: 'roles.route.RoleCreate', name: 'RoleCreate', permissions: [ADD], hidden: true },
      ...roleForm,
    },
    {
      path: ':id/update',
      handle: { title: 'roles.route.RoleUpdate', name: 'RoleUpdate', permissions: [CHANGE], hidden: true },
      ...roleForm,
    },
    {
      path: ':id',
      handle: { title: 'roles.route.RoleDetail', name: 'RoleDetail', permissions: [VIEW], hidden: true },
      ...roleDetail,
    },
  ],
};
