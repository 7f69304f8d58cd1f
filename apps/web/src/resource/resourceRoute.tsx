import type { ReactNode } from 'react';
import { Navigate, Outlet, useResolvedPath } from 'react-router';
import type { AppRoute } from '../lib/routeTypes.ts';
import { lazyPage } from '../lib/lazyPage.tsx';
import type { DetailTab, ResourceDetailProps } from './ResourceDetail.tsx';
import type { ResourceFormProps } from './ResourceForm.tsx';
import type { ResourceListProps } from './ResourceList.tsx';
import type * as ResourcePages from './resourcePages.tsx';
import { resourcePaths, ResourcePathsContext } from './resourcePaths.ts';
import { permissionFor, permissionNameFromUrl, type ResourcePermissionName } from './resourceUrl.ts';

/**
 * One resource's four pages (list, create, `:id/update`, `:id`: the JumpServer console) as one
 * declaration; a read-only resource (an audit log) declares no form and gets the list and detail.
 * The route part (paths, titles, permissions) is in the route tree; the page part (columns, form,
 * tabs) is loaded with the pages, so an area's pages are a chunk of their own.
 */
export interface ResourceRouteConfig {
  /** The route segment, e.g. `users`. */
  path: string;
  /** The collection URL, e.g. `/api/v1/users/users/`. */
  url: string;
  /** Route name stem: `User` names UserList, UserCreate, UserUpdate and UserDetail. */
  routeName: string;
  /** i18n keys of the page titles (create and update only where there is a form). */
  titles: { list: string; create?: string; update?: string; detail: string };
  /** i18n key of the object kind ("User"), the prefix of detail titles. */
  kind: string;
  icon?: ReactNode;
  permissions?: Partial<ResourcePermissionName>;
  disableOrgsChange?: boolean;
  /** No create or update pages (the page part then has no form). */
  readOnly?: boolean;
}

/** The page part of a resource: what the list, form and detail pages show. */
export interface ResourcePageParts {
  list: Omit<ResourceListProps, 'url' | 'permissions' | 'disableOrgsChange'>;
  /** A list page of its own around the list declaration (e.g. a tree beside the table); default the table alone. */
  listPage?(cfg: ResourcePagesConfig): ReactNode;
  /** Without a form the resource is read-only: no create or update pages. */
  form?: Omit<ResourceFormProps, 'url' | 'id'>;
  detail: { tabs: DetailTab[]; hasActivity?: boolean } & Pick<ResourceDetailProps, 'canUpdate' | 'canDelete'>;
}

export type ResourcePagesConfig = ResourceRouteConfig & ResourcePageParts;

let preloaded: typeof ResourcePages | undefined;

/** Pages loaded ahead (component tests load them with the test): whole configs then render at once. */
export function preloadResourcePages(pages: typeof ResourcePages): void {
  preloaded = pages;
}

/** Gives the pages below it their paths, from where the resource route is mounted. */
function ResourceScope() {
  const base = useResolvedPath('.').pathname;
  return (
    <ResourcePathsContext.Provider value={resourcePaths(base)}>
      <Outlet />
    </ResourcePathsContext.Provider>
  );
}

/**
 * The resource's routes. With the whole config the pages are built from it (tests, small resources);
 * with the route part and `load`, the page part and the page components are loaded when a page of
 * the resource is first opened. Who may open each page is its `handle.permissions`, checked by the
 * layout for every matched route (`shell/useShellContext.ts` `usePageAccess`).
 */
export function resourceRoute(cfg: ResourcePagesConfig): AppRoute;
export function resourceRoute(route: ResourceRouteConfig, load: () => Promise<ResourcePageParts>): AppRoute;
export function resourceRoute(route: ResourceRouteConfig, load?: () => Promise<ResourcePageParts>): AppRoute {
  const loadParts = load ?? (() => Promise.resolve(route as ResourcePagesConfig));
  const readOnly = load ? route.readOnly : !(route as ResourcePagesConfig).form;
  const name = permissionNameFromUrl(route.url, route.permissions);
  const view = permissionFor(name, 'view');
  const add = permissionFor(name, 'add');
  const change = permissionFor(name, 'change');
  const page = (render: (pages: typeof ResourcePages, cfg: ResourcePagesConfig) => ReactNode) =>
    !load && preloaded
      ? { element: render(preloaded, route as ResourcePagesConfig) }
      : lazyPage(
          () => Promise.all([import('./resourcePages.tsx'), loadParts()]),
          ([pages, parts]) => render(pages, { ...route, ...parts }),
        );
  const n = route.routeName;
  return {
    path: route.path,
    element: <ResourceScope />,
    handle: {
      title: route.titles.list,
      icon: route.icon,
      permissions: [view],
      app: name.app,
      resource: name.resource,
      disableOrgsChange: route.disableOrgsChange,
    },
    children: [
      {
        index: true,
        handle: { title: route.titles.list, name: `${n}List`, permissions: [view] },
        ...page(({ ListPage }, cfg) => (cfg.listPage ? cfg.listPage(cfg) : <ListPage cfg={cfg} />)),
      },
      ...(readOnly
        ? []
        : [
            {
              path: 'create',
              handle: {
                title: route.titles.create ?? route.titles.list,
                name: `${n}Create`,
                permissions: [add],
                hidden: true,
              },
              ...page(({ FormPage }, cfg) => <FormPage url={cfg.url} form={cfg.form!} />),
            },
            {
              path: ':id/update',
              handle: {
                title: route.titles.update ?? route.titles.detail,
                name: `${n}Update`,
                permissions: [change],
                hidden: true,
              },
              ...page(({ FormPage }, cfg) => <FormPage url={cfg.url} form={cfg.form!} />),
            },
          ]),
      {
        path: ':id',
        handle: { title: route.titles.detail, name: `${n}Detail`, permissions: [view], hidden: true },
        ...page(({ DetailPage }, cfg) => <DetailPage cfg={cfg} />),
      },
    ],
  };
}

/**
 * A resource whose list lives on another page (a tab of it): out of the menu, its list address
 * goes to that page (`listPath`, e.g. `/settings/terminal?activeTab=endpoints`), and its pages
 * light up that page's menu entry.
 */
export function offMenuRoute(r: AppRoute, listPath: string): AppRoute {
  const page = listPath.split('?')[0]!;
  return {
    ...r,
    handle: { ...r.handle!, hidden: true },
    children: r.children?.map((c) =>
      c.index
        ? { index: true, element: <Navigate to={listPath} replace /> }
        : { ...c, handle: { ...c.handle!, activeMenu: page } },
    ),
  };
}
