import { FileSearchOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../resource/resourceRoute.tsx';

/** Operate logs: read-only, a date range, "View" opens the diff of the operation. */
export const operateLogRoute: ResourceRouteConfig = {
  path: 'operate-logs',
  url: '/api/v1/audits/operate-logs/',
  routeName: 'OperateLog',
  titles: { list: 'auditlogs.route.OperateLogList', detail: 'auditlogs.route.OperateLogDetail' },
  kind: 'auditlogs.kind.OperateLog',
  icon: <FileSearchOutlined />,
  readOnly: true,
};
