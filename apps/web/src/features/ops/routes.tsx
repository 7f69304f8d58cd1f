import type { AppRoute } from '../../lib/routeTypes.ts';
import { lazyPage } from '../../lib/lazyPage.tsx';

/**
 * The hidden task-log pages (`/ops/{celery,ansible,task}/task/:id/log/`), outside any
 * view and without the layout: they open in a window of their own.
 */
export const opsTaskLogRoutes: AppRoute[] = ['celery', 'ansible', 'task'].map((type) => ({
  path: `ops/${type}/task/:id/log`,
  ...lazyPage(
    () => import('./TaskLogPage.tsx'),
    ({ TaskLogPage }) => <TaskLogPage />,
  ),
  handle: { title: 'ops.taskLog.title', hidden: true, permissions: [] },
}));
