import { hasPermission } from './permissions.ts';

/**
 * Route metadata rules of the console: what a
 * console route is (view, app, resource or crud page), which action it performs, which permission
 * it needs, and whether the menu shows it. Everything here is derived from the route's full path,
 * so a feature only writes what differs from the rules.
 */

export type RouteType = 'view' | 'app' | 'resource' | 'crud';
export type RouteAction = 'list' | 'create' | 'update' | 'destroy' | 'retrieve';

/** The action word of the permission for each route action (create→add, update→change, …). */
export const ACTION_PERMISSION_VERB: Readonly<Record<RouteAction, string>> = {
  create: 'add',
  update: 'change',
  list: 'view',
  retrieve: 'view',
  destroy: 'del',
};

const TYPE_BY_LEVEL: readonly RouteType[] = ['view', 'app', 'resource', 'crud'];

/** The static and parameter segments of a path, without empty ones (`/a/b/` → `['a', 'b']`). */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

const isParam = (segment: string) => segment.startsWith(':');

/** Depth 1 is a view, 2 an app, 3 a resource, 4 and deeper a crud page. */
export function routeTypeOfLevel(level: number): RouteType {
  if (level < 1) throw new RangeError(`route level must be at least 1, got ${level}`);
  return TYPE_BY_LEVEL[Math.min(level, 4) - 1]!;
}

/** create, update, delete (→ destroy) in the path, else an id parameter (→ retrieve), else list. */
export function routeActionOfPath(path: string): RouteAction {
  if (path.includes('create')) return 'create';
  if (path.includes('update')) return 'update';
  if (path.includes('delete')) return 'destroy';
  if (pathSegments(path).some(isParam)) return 'retrieve';
  return 'list';
}

/** A resource name from a path segment: without '-', and without one trailing 's'. */
export function resourceNameOfPath(segment: string): string {
  const last = pathSegments(segment).at(-1) ?? '';
  const joined = last.replaceAll('-', '');
  return joined.endsWith('s') ? joined.slice(0, -1) : joined;
}

/** `app.verb_resource` for an action, e.g. ('users', 'create', 'user') → `users.add_user`. */
export function permissionFor(app: string, action: RouteAction, resource: string): string {
  return `${app}.${ACTION_PERMISSION_VERB[action]}_${resource}`;
}

/** A hidden flag: fixed, or computed from the route and the public settings. */
export type HiddenRule<S = unknown> = boolean | ((arg: { route: ResolvedRouteMeta<S>; settings: S | null }) => boolean);

/** What a route may state explicitly; anything left out is derived. */
export interface RouteMetaInput<S = unknown> {
  type?: RouteType;
  view?: string;
  app?: string;
  resource?: string;
  action?: RouteAction;
  /** A list means every item must hold; an item with `|` means any one of its parts. */
  permissions?: string | readonly string[];
  hidden?: HiddenRule<S>;
  licenseRequired?: boolean;
  showOrganization?: boolean;
  disableOrgsChange?: boolean;
  activeMenu?: string;
}

export interface ResolvedRouteMeta<S = unknown> {
  fullPath: string;
  level: number;
  type: RouteType;
  view: string;
  app?: string;
  resource?: string;
  action: RouteAction;
  permissions: readonly string[];
  hidden: HiddenRule<S>;
  licenseRequired: boolean;
  showOrganization?: boolean;
  disableOrgsChange?: boolean;
  /** The menu entry a crud page lights up: its parent's path. */
  activeMenu?: string;
}

/** Joins a parent's full path and a child path (absolute child paths stand alone). */
export function joinRoutePath(parent: string, child: string | undefined): string {
  if (!child) return parent || '/';
  if (child.startsWith('/')) return child;
  return `${parent.replace(/\/+$/, '')}/${child}`;
}

export interface ResolveOptions<S> {
  /**
   * The parent route's resolved meta: deeper routes keep its app and resource, the organisation
   * flags are inherited, and crud pages get its path as activeMenu.
   */
  parent?: ResolvedRouteMeta<S>;
  /** A grouping route (it holds children and is not a page itself) gets no default permission. */
  isGroup?: boolean;
}

/**
 * The metadata of a route at `fullPath` (e.g. `/console/users/users/:id/update`): level and type
 * from the depth; view, app and resource from the first three segments; the action from the path;
 * the default permission `app.verb_resource` when app and resource are known.
 */
export function resolveRouteMeta<S = unknown>(
  fullPath: string,
  given: RouteMetaInput<S> = {},
  opts: ResolveOptions<S> = {},
): ResolvedRouteMeta<S> {
  const segments = pathSegments(fullPath);
  const level = Math.max(1, segments.length);
  const type = given.type ?? routeTypeOfLevel(level);
  const view = given.view ?? segments[0] ?? '';
  const parent = opts.parent;
  // Below its own level, a route keeps its parent's app and resource (a parent may name them).
  const samePage = parent?.fullPath.replace(/\/+$/, '') === fullPath.replace(/\/+$/, '');
  const appSegment = segments[1];
  const inheritApp = level > 2 || samePage ? parent?.app : undefined;
  const app = given.app ?? inheritApp ?? (appSegment && !isParam(appSegment) ? appSegment : undefined);
  const resourceSegment = segments[2];
  const inheritResource = level > 3 || samePage ? parent?.resource : undefined;
  const resource =
    given.resource ??
    inheritResource ??
    (resourceSegment && !isParam(resourceSegment) ? resourceNameOfPath(resourceSegment) : undefined);
  const action = given.action ?? routeActionOfPath(fullPath);
  let permissions: readonly string[];
  if (given.permissions !== undefined)
    permissions = typeof given.permissions === 'string' ? [given.permissions] : given.permissions;
  else if (!opts.isGroup && app && resource) permissions = [permissionFor(app, action, resource)];
  else permissions = [];
  const meta: ResolvedRouteMeta<S> = {
    fullPath,
    level,
    type,
    view,
    action,
    permissions,
    hidden: given.hidden ?? false,
    licenseRequired: given.licenseRequired ?? false,
  };
  if (app) meta.app = app;
  if (resource) meta.resource = resource;
  const showOrganization = given.showOrganization ?? parent?.showOrganization;
  if (showOrganization !== undefined) meta.showOrganization = showOrganization;
  const disableOrgsChange = given.disableOrgsChange ?? parent?.disableOrgsChange;
  if (disableOrgsChange !== undefined) meta.disableOrgsChange = disableOrgsChange;
  const activeMenu = given.activeMenu ?? (type === 'crud' && parent ? parent.fullPath : undefined);
  if (activeMenu) meta.activeMenu = activeMenu;
  return meta;
}

/** Valid licence: taken from the settings only when the paid extension is enabled. */
export function licenseIsValid(
  settings: { XPACK_ENABLED?: boolean; XPACK_LICENSE_IS_VALID?: boolean } | null | undefined,
): boolean {
  return Boolean(settings?.XPACK_ENABLED && settings.XPACK_LICENSE_IS_VALID);
}

export interface VisibilityContext<S = unknown> {
  perms: ReadonlySet<string> | readonly string[];
  settings: S | null;
  licenseValid: boolean;
}

/** Why a route is not shown, or undefined when it is. */
export type HiddenReason = 'flag' | 'permission' | 'license';

/** A route's own hiding rules: its flag (or flag function), a missing permission, a missing licence. */
export function routeHiddenReason<S>(meta: ResolvedRouteMeta<S>, ctx: VisibilityContext<S>): HiddenReason | undefined {
  const flag = typeof meta.hidden === 'function' ? meta.hidden({ route: meta, settings: ctx.settings }) : meta.hidden;
  if (flag) return 'flag';
  if (!hasPermission(ctx.perms, meta.permissions)) return 'permission';
  if (meta.licenseRequired && !ctx.licenseValid) return 'license';
  return undefined;
}

export interface MetaNode<S = unknown> {
  meta: ResolvedRouteMeta<S>;
  children?: readonly MetaNode<S>[];
}

/**
 * The routes the menu shows: a route goes when its own rules hide it (and its children with it),
 * and a route that had children goes when none of them is left.
 */
export function visibleRoutes<S, N extends MetaNode<S>>(nodes: readonly N[], ctx: VisibilityContext<S>): N[] {
  const out: N[] = [];
  for (const node of nodes) {
    if (routeHiddenReason(node.meta, ctx)) continue;
    if (node.children && node.children.length > 0) {
      const children = visibleRoutes(node.children as readonly N[], ctx);
      if (children.length === 0) continue;
      out.push({ ...node, children } as N);
    } else {
      out.push(node);
    }
  }
  return out;
}

export type RouteNameKind = 'List' | 'Create' | 'Update' | 'Detail';
const NAME_KIND = /(List|Create|Update|Detail)(?!.*(List|Create|Update|Detail))/;

/** The related route's name: `UserList` → `UserCreate`, `UserDetail` → `UserUpdate` or `UserList`. */
export function relatedRouteName(name: string, kind: RouteNameKind): string {
  if (!NAME_KIND.test(name)) throw new Error(`route name ${name} has no List, Create, Update or Detail part`);
  return name.replace(NAME_KIND, kind);
}

/** The query parameter a create page reads to clone an existing object. */
export const CLONE_FROM_PARAM = 'clone_from';

/** The query of "create from clone" for a source object id. */
export function cloneQuery(sourceId: string): Record<string, string> {
  return { [CLONE_FROM_PARAM]: sourceId };
}

/** The source id of a create-from-clone page (from its query string), if any. */
export function cloneSourceId(search: string): string | undefined {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [key, value = ''] = pair.split('=');
    if (key === CLONE_FROM_PARAM && value) return decodeURIComponent(value.replaceAll('+', ' '));
  }
  return undefined;
}
