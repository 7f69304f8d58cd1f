import { Navigate } from 'react-router';
import { FileSearchOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { resourceRoute } from '../../resource/resourceRoute.tsx';
import { loginLogRoute } from './loginLogRoute.tsx';
import { sessionAuditRoute } from './sessions/routes.tsx';

/**
 * The audit view , offered to users with audit organisations. Paths
 * follow the JumpServer console. `/audit` goes to the dashboard once
 * it is built; until then to the login logs, the first page of the view.
 */
export const auditRoute: AppRoute = {
  path: 'audit',
  handle: { title: 'route.Audit', switchable: true },
  children: [
    { index: true, element: <Navigate to="audits/login-logs/" replace /> },
    {
      path: 'audits',
      handle: { title: 'audit.route.Logs', icon: <FileSearchOutlined /> },
      children: [
        { index: true, element: <Navigate to="login-logs/" replace /> },
        resourceRoute(loginLogRoute, () => import('./loginLogPages.tsx').then((m) => m.loginLogPages)),
      ],
    },
    sessionAuditRoute,
  ],
};
