import { Navigate } from 'react-router';
import { DashboardOutlined, HddOutlined, KeyOutlined, UserOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/routeTypes.ts';
import { DashboardPage } from './dashboard/DashboardPage.tsx';
import { usersRoutes } from './users/routes.tsx';
import { assetsRoutes } from './assets/routes.tsx';
import { accountsRoutes } from './accounts/routes.tsx';

/**
 * The console's pages (spec 02 §2 "Console children"); each business area adds its routes here.
 * Paths follow console-reference §3.0 (e.g. `users/users/`), so the derived metadata names the
 * right permission; a route states only what differs (see `app/routeTypes.ts`).
 */
const children: AppRoute[] = [
  { index: true, element: <Navigate to="dashboard" replace /> },
  {
    path: 'dashboard',
    element: <DashboardPage />,
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
];

/** The console view; the shell (app/routes.tsx) frames it with the layout. */
export const consoleRoute: AppRoute = {
  path: 'console',
  handle: { title: 'route.Console', switchable: true },
  children,
};
