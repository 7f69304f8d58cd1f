import { lazy, Suspense, type ReactNode } from 'react';

/**
 * A route whose page is loaded the first time the route renders (`React.lazy`): the page's module
 * and what only it imports become a chunk of their own. The route's metadata (`handle`) stays in
 * the route tree, so menus and guards need no page code. Navigations run in a transition, so the
 * previous page stays until the new one has loaded.
 */
export function lazyPage<M>(load: () => Promise<M>, render: (module: M) => ReactNode): { element: ReactNode } {
  const Page = lazy(async () => {
    const module = await load();
    return { default: () => render(module) };
  });
  return {
    element: (
      <Suspense fallback={null}>
        <Page />
      </Suspense>
    ),
  };
}
