import { LoginOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../resource/resourceRoute.tsx';

/**
 * Login logs: read-only, a date range (last 7 days by default), no
 * left-side actions and no import; the detail is one card.
 */
export const loginLogRoute: ResourceRouteConfig = {
  path: 'login-logs',
  url: '/api/v1/audits/login-logs/',
  permissions: { resource: 'userloginlog' },
  routeName: 'LoginLog',
  titles: { list: 'audit.route.LoginLogList', detail: 'audit.route.LoginLogDetail' },
  kind: 'audit.kind.LoginLog',
  icon: <LoginOutlined />,
  readOnly: true,
};
