import { generatePath } from 'react-router';
import {
  joinRoutePath,
  resolveRouteMeta,
  type PublicSettings,
  type ResolvedRouteMeta,
  type RouteMetaInput,
} from '@gatehouse/contract';
import type { AppRoute, PreparedRoute, RouteMeta } from '../lib/routeTypes.ts';

/**
 * Derives every route's metadata from its full path and keeps
 * it on the route's `handle`, where guards, menus, tags and titles read it (`useMatches`).
 */

function metaInput(handle: RouteMeta | undefined): RouteMetaInput<PublicSettings> {
  if (!handle) return {};
  const {
    permissions,
    hidden,
    licenseRequired,
    showOrganization,
    disableOrgsChange,
    type,
    app,
    resource,
    action,
    activeMenu,
  } = handle;
  const input: RouteMetaInput<PublicSettings> = {};
  if (permissions !== undefined) input.permissions = permissions;
  if (hidden !== undefined) input.hidden = hidden;
  if (licenseRequired !== undefined) input.licenseRequired = licenseRequired;
  if (showOrganization !== undefined) input.showOrganization = showOrganization;
  if (disableOrgsChange !== undefined) input.disableOrgsChange = disableOrgsChange;
  if (type) input.type = type;
  if (app) input.app = app;
  if (resource) input.resource = resource;
  if (action) input.action = action;
  if (activeMenu) input.activeMenu = activeMenu;
  return input;
}

/** Copies a route tree, giving every route a handle with its resolved metadata. */
export function prepareRoutes(
  routes: readonly AppRoute[],
  parentPath = '/',
  parent?: ResolvedRouteMeta<PublicSettings>,
): PreparedRoute[] {
  return routes.map((route) => {
    const fullPath = route.index ? parentPath : joinRoutePath(parentPath, route.path);
    const isGroup = Boolean(route.children?.length);
    const resolved = resolveRouteMeta<PublicSettings>(
      fullPath,
      metaInput(route.handle),
      parent ? { parent, isGroup } : { isGroup },
    );
    const handle = { title: '', ...route.handle, resolved };
    const { children, ...rest } = route;
    const prepared = { ...rest, handle } as PreparedRoute;
    if (children) prepared.children = prepareRoutes(children, fullPath, resolved);
    return prepared;
  });
}

/** The routes the router matches: a tree without its external menu entries (`handle.externalUrl`). */
export function routerRoutes(routes: readonly PreparedRoute[]): PreparedRoute[] {
  return routes
    .filter((r) => !r.handle.externalUrl)
    .map((r) => (r.children ? { ...r, children: routerRoutes(r.children) } : r));
}

/** Every route of a tree, depth first. */
export function flattenRoutes(routes: readonly PreparedRoute[]): PreparedRoute[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** The path of a named route with its parameters, or undefined when no such route is built. */
export function pathOfRouteName(
  routes: readonly PreparedRoute[],
  name: string,
  params: Record<string, string | undefined> = {},
): string | undefined {
  const route = flattenRoutes(routes).find((r) => r.handle.name === name);
  if (!route) return undefined;
  try {
    return generatePath(route.handle.resolved.fullPath, params);
  } catch {
    return undefined;
  }
}
