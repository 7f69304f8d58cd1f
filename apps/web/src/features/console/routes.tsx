import { Navigate } from 'react-router';
import { DashboardOutlined, HddOutlined, KeyOutlined, UserOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { lazyPage } from '../../lib/lazyPage.tsx';
import { usersRoutes } from './users/routes.tsx';
import { assetsRoutes } from './assets/routes.tsx';
import { permsIcon, permsRoutes } from './perms/routes.tsx';
import { accountsRoutes } from './accounts/routes.tsx';

/**
 * The console's pages; each business area adds its routes here.
 * Paths follow the JumpServer console (e.g. `users/users/`), so the derived metadata names the
 * right permission; a route states only what differs (see `lib/routeTypes.ts`).
 */
const children: AppRoute[] = [
  { index: true, element: <Navigate to="dashboard" replace /> },
  {
    path: 'dashboard',
    ...lazyPage(
      () => import('./dashboard/DashboardPage.tsx'),
      ({ DashboardPage }) => <DashboardPage />,
    ),
    handle: {
      title: 'route.Dashboard',
      name: 'AdminDashboard',
      icon: <DashboardOutlined />,
      permissions: ['rbac.view_console'],
      affix: true,
    },
  },
  { path: 'users', handle: { title: 'route.Users', icon: <UserOutlined /> }, children: usersRoutes },
  { path: 'assets', handle: { title: 'assets.route.Assets', icon: <HddOutlined /> }, children: assetsRoutes },
  { path: 'accounts', handle: { title: 'accounts.route.Accounts', icon: <KeyOutlined /> }, children: accountsRoutes },
  { path: 'perms', handle: { title: 'acls.route.Perms', icon: permsIcon }, children: permsRoutes },
];

/** The console view; the shell (app/routes.tsx) frames it with the layout. */
export const consoleRoute: AppRoute = {
  path: 'console',
  handle: { title: 'route.Console', switchable: true },
  children,
};
