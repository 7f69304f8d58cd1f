import { Navigate } from 'react-router';
import { BookOutlined, HistoryOutlined, ScheduleOutlined, ThunderboltOutlined, ToolOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { lazyPage } from '../../../lib/lazyPage.tsx';
import { offMenuRoute, resourceRoute, type ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';
import { OpsGate } from './OpsGate.tsx';

/**
 * The workbench's job centre (`/workbench/ops`, console reference "Quick job" to "Executions"):
 * the user's own jobs, templates and executions. Its menu group hides while the public setting
 * `SECURITY_COMMAND_EXECUTION` is off, and its pages then say so (`OpsGate`).
 */
export const jobConfig: ResourceRouteConfig = {
  path: 'job',
  url: '/api/v1/ops/jobs/',
  routeName: 'Job',
  titles: {
    list: 'jobs.route.jobs',
    create: 'jobs.route.jobCreate',
    update: 'jobs.route.jobUpdate',
    detail: 'jobs.route.jobDetail',
  },
  kind: 'jobs.kind.job',
  icon: <ScheduleOutlined />,
};
export const adhocConfig: ResourceRouteConfig = {
  path: 'adhoc',
  url: '/api/v1/ops/adhocs/',
  routeName: 'Adhoc',
  titles: {
    list: 'jobs.route.templates',
    create: 'jobs.route.adhocCreate',
    update: 'jobs.route.adhocUpdate',
    detail: 'jobs.route.adhocDetail',
  },
  kind: 'jobs.kind.adhoc',
};
export const playbookConfig: ResourceRouteConfig = {
  path: 'playbook',
  url: '/api/v1/ops/playbooks/',
  routeName: 'Playbook',
  titles: {
    list: 'jobs.route.templates',
    create: 'jobs.route.playbookCreate',
    update: 'jobs.route.playbookUpdate',
    detail: 'jobs.route.playbookDetail',
  },
  kind: 'jobs.kind.playbook',
};
export const executionsConfig: ResourceRouteConfig = {
  path: 'executions',
  url: '/api/v1/ops/job-executions/',
  routeName: 'JobExecution',
  titles: { list: 'jobs.route.executions', detail: 'jobs.route.executionDetail' },
  kind: 'jobs.kind.execution',
  icon: <HistoryOutlined />,
  readOnly: true,
};

const pages = () => import('./opsPages.ts');

const TEMPLATES = '/workbench/ops/templates';

/** A resource whose pages are reached from the templates page: out of the menu, its list goes there. */
const offMenu = (r: AppRoute, tab: string): AppRoute => offMenuRoute(r, `${TEMPLATES}?activeTab=${tab}`);

const playbookRoute = offMenu(
  resourceRoute(playbookConfig, () => pages().then((m) => m.playbookPages)),
  'playbook',
);
playbookRoute.children!.push({
  path: ':id/workspace',
  ...lazyPage(
    () => import('./PlaybookWorkspacePage.tsx'),
    ({ PlaybookWorkspacePage }) => <PlaybookWorkspacePage />,
  ),
  handle: {
    title: 'jobs.route.workspace',
    name: 'PlaybookWorkspace',
    permissions: ['ops.change_playbook'],
    hidden: true,
    activeMenu: TEMPLATES,
  },
});

export const opsRoute: AppRoute = {
  path: 'ops',
  element: <OpsGate />,
  handle: {
    title: 'jobs.route.ops',
    icon: <ThunderboltOutlined />,
    hidden: ({ settings }) => !settings?.SECURITY_COMMAND_EXECUTION,
  },
  children: [
    { index: true, element: <Navigate to="quick-job" replace /> },
    {
      path: 'quick-job',
      ...lazyPage(
        () => import('./QuickJobPage.tsx'),
        ({ QuickJobPage }) => <QuickJobPage />,
      ),
      handle: {
        title: 'jobs.route.quickJob',
        name: 'QuickJob',
        icon: <ToolOutlined />,
        permissions: ['ops.view_job', 'ops.add_job', 'ops.add_jobexecution'],
      },
    },
    resourceRoute(jobConfig, () => pages().then((m) => m.jobPages)),
    {
      path: 'templates',
      ...lazyPage(
        () => import('./TemplatesPage.tsx'),
        ({ TemplatesPage }) => <TemplatesPage />,
      ),
      handle: {
        title: 'jobs.route.templates',
        name: 'Template',
        icon: <BookOutlined />,
        permissions: ['ops.view_adhoc | ops.view_playbook'],
      },
    },
    offMenu(
      resourceRoute(adhocConfig, () => pages().then((m) => m.adhocPages)),
      'adhoc',
    ),
    playbookRoute,
    resourceRoute(executionsConfig, () => pages().then((m) => m.executionPages)),
  ],
};
