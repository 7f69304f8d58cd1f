import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import type { HiddenRule, PublicSettings, ResolvedRouteMeta, RouteAction, RouteType } from '@gatehouse/contract';

/**
 * What a route tells the shell: its title key, menu icon, and anything that differs from the route
 * metadata rules of the console (view, app, resource, action and the permission `app.verb_resource`
 * are derived from the full path by `@gatehouse/contract` `resolveRouteMeta`).
 */
export interface RouteMeta {
  /** Translation key of the page and menu title (e.g. `route.UserList`). */
  title: string;
  icon?: ReactNode;
  /** Replaces the derived permission; every item must hold, `a | b` means either. */
  permissions?: string[];
  /** Left out of the menu: a flag, or a function of the route and the public settings. */
  hidden?: HiddenRule<PublicSettings>;
  /** Route name (e.g. `UserList`; the related pages are `UserCreate`, `UserUpdate`, `UserDetail`). */
  name?: string;
  /** Needs a valid licence; without one the route is out of the menu and shows the not-found page. */
  licenseRequired?: boolean;
  /** `false` hides the organisation selector on this route and its children. */
  showOrganization?: boolean;
  /** Makes the organisation selector read-only on this route and its children. */
  disableOrgsChange?: boolean;
  /** Overrides of the derived metadata (e.g. `resource: 'usergroup'` for `/console/users/groups/`). */
  type?: RouteType;
  app?: string;
  resource?: string;
  action?: RouteAction;
  /** The menu entry to light up instead of the route's own. */
  activeMenu?: string;
  /** A view route offered in the view switcher. */
  switchable?: boolean;
  /** A tag of the tags bar that cannot be closed. */
  affix?: boolean;
  /**
   * A menu entry leading out of the console (e.g. `/luna/`), opened in a new tab: the route is kept
   * out of the router (`routerRoutes`), so guards, breadcrumbs and tags never see it; its `path`
   * only names the menu entry.
   */
  externalUrl?: string;
}

export type AppRoute = Omit<RouteObject, 'children' | 'handle'> & {
  handle?: RouteMeta;
  children?: AppRoute[];
};

/** A route after the router has derived its metadata (`app/routeRegistry.ts`). */
export interface PreparedHandle extends RouteMeta {
  resolved: ResolvedRouteMeta<PublicSettings>;
}

export type PreparedRoute = Omit<AppRoute, 'handle' | 'children'> & {
  handle: PreparedHandle;
  children?: PreparedRoute[];
};
