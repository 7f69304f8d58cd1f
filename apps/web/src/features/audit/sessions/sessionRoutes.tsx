import { CodeOutlined, FileSyncOutlined, PlaySquareOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';

/**
 * The session audit's resources (route part): sessions (online/offline tabs, detail), commands
 * across sessions and file transfers, all read-only; their pages are in the files beside this one.
 */
export const sessionRoute: ResourceRouteConfig = {
  path: 'sessions',
  url: '/api/v1/terminal/sessions/',
  routeName: 'Session',
  titles: { list: 'audit.route.SessionList', detail: 'audit.route.SessionDetail' },
  kind: 'audit.kind.Session',
  icon: <PlaySquareOutlined />,
  readOnly: true,
};

export const commandRoute: ResourceRouteConfig = {
  path: 'command',
  url: '/api/v1/terminal/commands/',
  routeName: 'Command',
  titles: { list: 'audit.route.CommandList', detail: 'audit.route.CommandDetail' },
  kind: 'audit.kind.Command',
  icon: <CodeOutlined />,
  readOnly: true,
};

export const ftpLogRoute: ResourceRouteConfig = {
  path: 'ftp',
  url: '/api/v1/audits/ftp-logs/',
  permissions: { resource: 'ftplog' },
  routeName: 'FtpLog',
  titles: { list: 'audit.route.FtpLogList', detail: 'audit.route.FtpLogDetail' },
  kind: 'audit.kind.FtpLog',
  icon: <FileSyncOutlined />,
  readOnly: true,
};
