import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A component that stays out of the first load: `React.lazy` of `load`, for use with `LazyWhen`.
 * Dialogs and drawers the console mounts everywhere but opens rarely are loaded this way.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, its props kept by C
export function lazyComponent<C extends ComponentType<any>>(load: () => Promise<C>): LazyExoticComponent<C> {
  return lazy(() => load().then((component) => ({ default: component })));
}

/**
 * Renders `children` (a lazy component) from the first time `when` holds, and keeps it mounted
 * after, so a dialog's closing animation and state behave as if it had always been there.
 */
export function LazyWhen({ when, children }: { when: boolean; children: React.ReactNode }) {
  const [seen, setSeen] = useState(when);
  if (when && !seen) setSeen(true);
  if (!seen && !when) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
