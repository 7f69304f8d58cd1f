import type { ReactNode } from 'react';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { RequirePermission } from '../../../lib/RequirePermission.tsx';

/** A resource route whose create and update pages are `form` (a page reading its query), keeping their guards. */
export function withFormPage(route: AppRoute, form: ReactNode): AppRoute {
  return {
    ...route,
    children: route.children?.map((child) =>
      child.path === 'create' || child.path === ':id/update'
        ? { ...child, element: <RequirePermission perms={child.handle?.permissions ?? []}>{form}</RequirePermission> }
        : child,
    ),
  };
}

/** A resource route whose list (index) page is `list`, keeping its guard. */
export function withListPage(route: AppRoute, list: ReactNode): AppRoute {
  return {
    ...route,
    children: route.children?.map((child) =>
      child.index
        ? { ...child, element: <RequirePermission perms={child.handle?.permissions ?? []}>{list}</RequirePermission> }
        : child,
    ),
  };
}
