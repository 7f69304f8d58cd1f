import { Navigate } from 'react-router';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { groupPages } from './groupPages.tsx';
import { userPages } from './userPages.tsx';
import { rolesRoute } from './roles/routes.tsx';

/** The console's users app: `/console/users/users/*` and `/console/users/groups/*`. */
export const usersRoutes: AppRoute[] = [
  { index: true, element: <Navigate to="users/" replace /> },
  resourceRoute(userPages),
  resourceRoute(groupPages),
  rolesRoute,
];
