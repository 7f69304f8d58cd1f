import type { ReactNode } from 'react';
import {
  visibleRoutes,
  type MetaNode,
  type PublicSettings,
  type ResolvedRouteMeta,
  type VisibilityContext,
} from '@gatehouse/contract';
import type { PreparedRoute } from '../lib/routeTypes.ts';

/**
 * The sidebar menu of a view: the built routes the user may see,
 * grouped by app; crud pages never appear, and a group without a visible entry goes.
 */
export interface MenuEntry {
  /** The full path without a trailing slash; unique in the menu. */
  key: string;
  /** Where the entry leads. */
  path: string;
  /** Translation key. */
  title: string;
  /** Shown when the translation key has no text (groups made from an app name). */
  fallbackTitle?: string;
  icon?: ReactNode;
  /** An address outside the console, opened in a new tab (the route's `handle.externalUrl`). */
  externalUrl?: string;
  children?: MenuEntry[];
}

/**
 * Menus open at first when present. The audit logs group is `/audit/logs` there and
 * `/audit/audits` in the route map of the JumpServer console, which the paths follow.
 */
export const DEFAULT_OPEN_MENUS: readonly string[] = [
  '/audit/sessions',
  '/audit/logs',
  '/audit/audits',
  '/workbench/ops',
];

interface Node extends MetaNode<PublicSettings> {
  meta: ResolvedRouteMeta<PublicSettings>;
  route: PreparedRoute;
  children?: Node[];
}

export const menuKey = (path: string): string => path.replace(/\/+$/, '') || '/';

/** A route with neither title nor permission (a redirect) says nothing about what is visible. */
const isBare = (r: PreparedRoute) =>
  !r.handle.title && r.handle.resolved.permissions.length === 0 && !r.children?.length;

function toNodes(routes: readonly PreparedRoute[]): Node[] {
  return routes
    .filter((r) => !isBare(r))
    .map((route) => {
      const children = route.children ? toNodes(route.children) : undefined;
      return children?.length
        ? { meta: route.handle.resolved, route, children }
        : { meta: route.handle.resolved, route };
    });
}

const isMenuRoute = (n: Node) => !n.route.index && Boolean(n.route.handle.title) && n.meta.type !== 'crud';

function entry(n: Node, children?: MenuEntry[]): MenuEntry {
  const e: MenuEntry = { key: menuKey(n.meta.fullPath), path: n.meta.fullPath, title: n.route.handle.title };
  if (n.route.handle.icon) e.icon = n.route.handle.icon;
  if (n.route.handle.externalUrl) e.externalUrl = n.route.handle.externalUrl;
  if (children?.length) e.children = children;
  return e;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function buildMenu(view: PreparedRoute, ctx: VisibilityContext<PublicSettings>): MenuEntry[] {
  const visible = visibleRoutes(toNodes(view.children ?? []), ctx);
  const out: MenuEntry[] = [];
  const groups = new Map<string, MenuEntry>();
  for (const n of visible.filter(isMenuRoute)) {
    const items = (n.children ?? []).filter(isMenuRoute).map((c) => entry(c));
    if (n.meta.type === 'resource' && n.meta.app && n.meta.level === 3 && !items.length) {
      // A resource registered straight under the view goes into its app's group.
      const key = `/${n.meta.view}/${n.meta.app}`;
      let group = groups.get(key);
      if (!group) {
        group = {
          key,
          path: key,
          title: `route.${capitalise(n.meta.app)}`,
          fallbackTitle: capitalise(n.meta.app),
          children: [],
        };
        groups.set(key, group);
        out.push(group);
      }
      group.children!.push(entry(n));
      continue;
    }
    const e = entry(n, items);
    const existing = groups.get(e.key);
    if (existing && e.children) existing.children!.push(...e.children);
    else if (!existing) {
      if (e.children) groups.set(e.key, e);
      out.push(e);
    }
  }
  return out;
}

const flatten = (entries: readonly MenuEntry[]): MenuEntry[] =>
  entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);

/** The entry to light up: the route's activeMenu, else the longest entry path the address is under. */
export function selectedMenuKey(
  entries: readonly MenuEntry[],
  pathname: string,
  activeMenu?: string,
): string | undefined {
  const leaves = flatten(entries).filter((e) => !e.children && !e.externalUrl);
  const target = menuKey(activeMenu ?? pathname);
  const under = leaves.filter((e) => target === e.key || target.startsWith(`${e.key}/`));
  if (!under.length && activeMenu) return selectedMenuKey(entries, pathname);
  return under.sort((a, b) => b.key.length - a.key.length)[0]?.key;
}

/** Open at first: the default menus that exist, and the group holding the selected entry. */
export function initialOpenKeys(entries: readonly MenuEntry[], selected: string | undefined): string[] {
  const groups = entries.filter((e) => e.children);
  const open = groups.filter((g) => DEFAULT_OPEN_MENUS.includes(g.key)).map((g) => g.key);
  const holder = groups.find((g) => g.children!.some((c) => c.key === selected));
  if (holder && !open.includes(holder.key)) open.push(holder.key);
  return open;
}

/** One submenu open at a time: opening one closes the others. */
export function nextOpenKeys(previous: readonly string[], requested: readonly string[]): string[] {
  const opened = requested.find((k) => !previous.includes(k));
  return opened ? [opened] : [...requested];
}
