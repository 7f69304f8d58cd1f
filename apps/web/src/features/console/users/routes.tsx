import { Navigate } from 'react-router';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { groupRoute } from './groupRoute.tsx';
import { userRoute } from './userRoute.tsx';
import { rolesRoute } from './roles/routes.tsx';

/** The console's users app: `/console/users/users/*` and `/console/users/groups/*`; pages load with the route. */
export const usersRoutes: AppRoute[] = [
  { index: true, element: <Navigate to="users/" replace /> },
  resourceRoute(userRoute, () => import('./userPages.tsx').then((m) => m.userPages)),
  resourceRoute(groupRoute, () => import('./groupPages.tsx').then((m) => m.groupPages)),
  rolesRoute,
];
