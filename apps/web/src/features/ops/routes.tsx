import type { AppRoute } from '../../lib/routeTypes.ts';
import { TaskLogPage } from './TaskLogPage.tsx';

/**
 * The hidden task-log pages of the console, outside any
 * view and without the layout: they open in a window of their own.
 */
export const opsTaskLogRoutes: AppRoute[] = ['celery', 'ansible', 'task'].map((type) => ({
  path: `ops/${type}/task/:id/log`,
  element: <TaskLogPage />,
  handle: { title: 'ops.taskLog.title', hidden: true, permissions: [] },
}));
