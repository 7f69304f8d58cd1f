import type { AppRoute } from '../../../lib/routeTypes.ts';
import type { lazyPage } from '../../../lib/lazyPage.tsx';

type LazyPage = ReturnType<typeof lazyPage>;

/** A resource route whose create and update pages are `form` (a page reading its query). */
export function withFormPage(route: AppRoute, form: LazyPage): AppRoute {
  return {
    ...route,
    children: route.children?.map((child) =>
      child.path === 'create' || child.path === ':id/update' ? { ...child, ...form } : child,
    ),
  };
}

/** A resource route whose list (index) page is `list`. */
export function withListPage(route: AppRoute, list: LazyPage): AppRoute {
  return { ...route, children: route.children?.map((child) => (child.index ? { ...child, ...list } : child)) };
}
