import { Navigate } from 'react-router';
import { DashboardOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/routeTypes.ts';
import { Layout } from '../../shell/Layout.tsx';
import { DashboardPage } from './dashboard/DashboardPage.tsx';

const children: AppRoute[] = [
  { index: true, element: <Navigate to="dashboard" replace /> },
  { path: 'dashboard', element: <DashboardPage />, handle: { title: 'route.Dashboard', icon: <DashboardOutlined /> } },
];

/** The console view (spec 02 §2 "Console children"); each business area adds its routes here. */
export const consoleRoute: AppRoute = {
  path: 'console',
  handle: { title: 'route.Console' },
  children,
};
consoleRoute.element = <Layout view={consoleRoute} />;
