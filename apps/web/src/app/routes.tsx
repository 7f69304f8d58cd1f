import { Navigate } from 'react-router';
import { StartupGate } from './StartupGate.tsx';
import type { AppRoute } from '../lib/routeTypes.ts';
import { ROUTER_VIEWS } from './viewRoutes.ts';
import { prepareRoutes } from './routeRegistry.ts';
import { Layout } from '../shell/Layout.tsx';
import { RedirectPage } from '../shell/RedirectPage.tsx';
import { lazyPage } from '../lib/lazyPage.tsx';
import { SessionDetailRedirect } from '../shell/SessionDetailRedirect.tsx';
import { opsTaskLogRoutes } from '../features/ops/routes.tsx';

export { BUILT_VIEWS, hasRoute, VIEW_ROUTES } from './viewRoutes.ts';

/**
 * The router of the console: the startup gate runs first; the root goes to the
 * preferred view (or the overview); views, the not-found page and the refresh redirect render in
 * the layout; unknown paths go to /404.
 */
export const ROUTES: AppRoute[] = [
  {
    path: '/',
    element: <StartupGate />,
    children: [
      {
        index: true,
        ...lazyPage(
          () => import('../shell/RootPage.tsx'),
          ({ RootPage }) => <RootPage />,
        ),
        handle: { title: 'route.Overview' },
      },
      {
        element: <Layout />,
        children: [
          ...ROUTER_VIEWS,
          ...prepareRoutes([
            {
              path: '404',
              ...lazyPage(
                () => import('../shell/NotFoundPage.tsx'),
                ({ NotFoundPage }) => <NotFoundPage />,
              ),
              handle: { title: 'route.NotFound' },
            },
            { path: 'redirect/*', element: <RedirectPage /> },
          ]),
        ] as AppRoute[],
      },
      { path: 'terminal/sessions/:id', element: <SessionDetailRedirect /> },
      ...opsTaskLogRoutes,
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];
