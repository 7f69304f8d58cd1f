import { Navigate } from 'react-router';
import { DashboardOutlined, FileSearchOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { lazyPage } from '../../lib/lazyPage.tsx';
import { resourceRoute } from '../../resource/resourceRoute.tsx';
import { loginLogRoute } from './loginLogRoute.tsx';
import { operateLogRoute } from './operateLogRoute.tsx';
import { passwordChangeLogRoute } from './passwordChangeLogRoute.tsx';
import { jobLogRoute } from './jobLogRoute.tsx';
import { userSessionRoute } from './userSessionRoute.tsx';
import { sessionAuditRoute } from './sessions/routes.tsx';

/**
 * The audit view, offered to users with audit organisations. Paths follow the JumpServer console;
 * `/audit` opens the audit dashboard.
 */
export const auditRoute: AppRoute = {
  path: 'audit',
  handle: { title: 'route.Audit', switchable: true },
  children: [
    { index: true, element: <Navigate to="dashboard" replace /> },
    {
      path: 'dashboard',
      ...lazyPage(
        () => import('./dashboard/AuditDashboardPage.tsx'),
        ({ AuditDashboardPage }) => <AuditDashboardPage />,
      ),
      handle: {
        title: 'route.Dashboard',
        name: 'AuditDashboard',
        icon: <DashboardOutlined />,
        permissions: ['rbac.view_audit'],
      },
    },
    sessionAuditRoute,
    resourceRoute(userSessionRoute, () => import('./userSessionPages.tsx').then((m) => m.userSessionPages)),
    {
      path: 'audits',
      handle: { title: 'audit.route.Logs', icon: <FileSearchOutlined /> },
      children: [
        { index: true, element: <Navigate to="login-logs/" replace /> },
        resourceRoute(loginLogRoute, () => import('./loginLogPages.tsx').then((m) => m.loginLogPages)),
        resourceRoute(operateLogRoute, () => import('./operateLogPages.tsx').then((m) => m.operateLogPages)),
        resourceRoute(passwordChangeLogRoute, () =>
          import('./passwordChangeLogPages.tsx').then((m) => m.passwordChangeLogPages),
        ),
        resourceRoute(jobLogRoute, () => import('./jobLogPages.tsx').then((m) => m.jobLogPages)),
      ],
    },
  ],
};
