import { TeamOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../resource/resourceRoute.tsx';

/** Online user sessions (`/audit/online-user-session`): live web sign-ins, with "Offline". */
export const userSessionRoute: ResourceRouteConfig = {
  path: 'online-user-session',
  url: '/api/v1/audits/user-sessions/',
  routeName: 'UserSession',
  titles: { list: 'auditlogs.route.UserSessionList', detail: 'auditlogs.route.UserSessionDetail' },
  kind: 'auditlogs.kind.UserSession',
  icon: <TeamOutlined />,
  readOnly: true,
};
