import { Navigate } from 'react-router';
import { VideoCameraOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { commandRoute, ftpLogRoute, sessionRoute } from './sessionRoutes.tsx';

/** The session audit group of the audit view: `/audit/sessions/{sessions,command,ftp}`. */
export const sessionAuditRoute: AppRoute = {
  path: 'sessions',
  handle: { title: 'audit.route.Sessions', icon: <VideoCameraOutlined /> },
  children: [
    { index: true, element: <Navigate to="sessions/" replace /> },
    resourceRoute(sessionRoute, () => import('./sessionPages.tsx').then((m) => m.sessionPages)),
    resourceRoute(commandRoute, () => import('./commandPages.tsx').then((m) => m.commandPages)),
    resourceRoute(ftpLogRoute, () => import('./ftpLogPages.tsx').then((m) => m.ftpLogPages)),
  ],
};
