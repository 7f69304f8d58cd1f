import { lazy, Suspense, type ReactNode } from 'react';

/**
 * A route whose page is loaded the first time the route renders (`React.lazy`): the page's module
 * and what only it imports become a chunk of their own. The route's metadata (`handle`) stays in
 * the route tree, so menus and guards need no page code. Navigations run in a transition, so the
 * previous page stays until the new one has loaded.
 */
export function lazyPage<M>(
  load: () => Promise<M>,
  render: (module: M) => ReactNode,
): { element: ReactNode; preload: () => Promise<unknown> } {
  let loading: Promise<M> | undefined;
  const preload = () => (loading ??= load());
  const Page = lazy(async () => {
    const module = await preload();
    return { default: () => render(module) };
  });
  return {
    preload,
    element: (
      <Suspense fallback={null}>
        <Page />
      </Suspense>
    ),
  };
}

/**
 * Starts loading the pages of the routes matching `pathname` (a first load fetches them while the
 * startup sequence runs, instead of after it).
 */
export function preloadMatched(matches: readonly { route: object }[] | null): void {
  for (const m of matches ?? []) {
    const preload = (m.route as { preload?: () => Promise<unknown> }).preload;
    if (preload) void preload().catch(() => undefined);
  }
}
