import { matchRoutes } from 'react-router';
import { auditRoute } from '../features/audit/routes.tsx';
import { consoleRoute } from '../features/console/routes.tsx';
import { profileRoute } from '../features/profile/routes.tsx';
import { workbenchRoute } from '../features/workbench/routes.tsx';
import { settingsRoute } from '../features/settings/routes.tsx';
import { ticketsRoute } from '../features/tickets/routes.tsx';
import { prepareRoutes, routerRoutes } from './routeRegistry.ts';
import type { AppRoute, PreparedRoute } from '../lib/routeTypes.ts';

/** Every view built into this console; each feature exports its view route and it is listed here. */
export const VIEW_ROUTES: AppRoute[] = [
  consoleRoute,
  auditRoute,
  profileRoute,
  workbenchRoute,
  settingsRoute,
  ticketsRoute,
];

/** The view routes with their metadata derived; the menu reads them, external entries included. */
export const PREPARED_VIEWS: PreparedRoute[] = prepareRoutes(VIEW_ROUTES);

/** The view routes the router matches (no external menu entries). */
export const ROUTER_VIEWS: PreparedRoute[] = routerRoutes(PREPARED_VIEWS);

export const BUILT_VIEWS: ReadonlySet<string> = new Set(PREPARED_VIEWS.map((r) => r.handle.resolved.view));

/** Views marked for the view switcher. */
export const SWITCHER_MARKED_VIEWS: readonly string[] = PREPARED_VIEWS.filter((r) => r.handle.switchable).map(
  (r) => r.handle.resolved.view,
);

export function viewRoute(view: string | undefined): PreparedRoute | undefined {
  return PREPARED_VIEWS.find((r) => r.handle.resolved.view === view);
}

const PAGES = [{ path: '/', children: ROUTER_VIEWS }];

/** Whether a console page is built at this path (the catch-all does not count). */
export function hasRoute(path: string): boolean {
  const matches = matchRoutes(PAGES as never, path);
  const last = matches?.at(-1);
  return Boolean(last && last.route.path !== '*' && matches!.length > 1);
}
