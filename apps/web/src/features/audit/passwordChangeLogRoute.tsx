import { KeyOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../resource/resourceRoute.tsx';

/** Password change logs (`/audit/audits/password-change-log`, as the JumpServer console names it). */
export const passwordChangeLogRoute: ResourceRouteConfig = {
  path: 'password-change-log',
  url: '/api/v1/audits/password-change-logs/',
  permissions: { resource: 'passwordchangelog' },
  routeName: 'PasswordChangeLog',
  titles: { list: 'auditlogs.route.PasswordChangeLogList', detail: 'auditlogs.route.PasswordChangeLogDetail' },
  kind: 'auditlogs.kind.PasswordChangeLog',
  icon: <KeyOutlined />,
  readOnly: true,
};
