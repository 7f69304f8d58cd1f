import { Navigate } from 'react-router';
import { matchRoutes } from 'react-router';
import { StartupGate } from './StartupGate.tsx';
import type { AppRoute } from './routeTypes.ts';
import { consoleRoute } from '../features/console/routes.tsx';
import { NotFoundPage } from '../shell/NotFoundPage.tsx';

/** Every view built into this console; features register theirs here. */
export const VIEW_ROUTES: AppRoute[] = [consoleRoute];

export const BUILT_VIEWS: ReadonlySet<string> = new Set(VIEW_ROUTES.map((r) => r.path!.replace(/\/$/, '')));

export const ROUTES: AppRoute[] = [
  {
    path: '/',
    element: <StartupGate />,
    children: [
      ...VIEW_ROUTES,
      { path: '404', element: <NotFoundPage />, handle: { title: 'route.NotFound' } },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export function hasRoute(path: string): boolean {
  const matches = matchRoutes(ROUTES as never, path);
  return Boolean(matches?.length) && matches![matches!.length - 1]!.route.path !== '*';
}
