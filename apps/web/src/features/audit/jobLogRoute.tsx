import { DesktopOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../resource/resourceRoute.tsx';

/** Job logs (`/audit/audits/job-execution-log`): the job centre's executions. */
export const jobLogRoute: ResourceRouteConfig = {
  path: 'job-execution-log',
  url: '/api/v1/audits/job-logs/',
  permissions: { resource: 'joblog' },
  routeName: 'JobLog',
  titles: { list: 'auditlogs.route.JobLogList', detail: 'auditlogs.route.JobLogDetail' },
  kind: 'auditlogs.kind.JobLog',
  icon: <DesktopOutlined />,
  readOnly: true,
};
