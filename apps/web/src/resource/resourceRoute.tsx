import type { ReactNode } from 'react';
import { Outlet, useParams, useResolvedPath, useSearchParams } from 'react-router';
import type { AppRoute } from '../lib/routeTypes.ts';
import { RequirePermission } from '../lib/RequirePermission.tsx';
import { ResourceDetail, type DetailTab, type ResourceDetailProps } from './ResourceDetail.tsx';
import { ResourceForm, type ResourceFormProps } from './ResourceForm.tsx';
import { ResourceList, type ResourceListProps } from './ResourceList.tsx';
import { resourcePaths, ResourcePathsContext } from './resourcePaths.ts';
import { permissionFor, permissionNameFromUrl, type ResourcePermissionName } from './resourceUrl.ts';

/**
 * One resource's four pages (list, create, `:id/update`, `:id`: the JumpServer console) as one
 * declaration; a read-only resource (an audit log) declares no form and gets the list and detail.
 */
export interface ResourcePagesConfig {
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
  list: Omit<ResourceListProps, 'url' | 'permissions' | 'disableOrgsChange'>;
  /** Without a form the resource is read-only: no create or update pages. */
  form?: Omit<ResourceFormProps, 'url' | 'id'>;
  detail: { tabs: DetailTab[]; hasActivity?: boolean } & Pick<ResourceDetailProps, 'canUpdate' | 'canDelete'>;
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

function FormPage({ url, form }: { url: string; form: NonNullable<ResourcePagesConfig['form']> }) {
  const { id } = useParams();
  const [params] = useSearchParams();
  return <ResourceForm key={`${id ?? 'new'}:${params.get('clone_from') ?? ''}`} url={url} id={id} {...form} />;
}

function DetailPage({ cfg }: { cfg: ResourcePagesConfig }) {
  const { id } = useParams();
  return (
    <ResourceDetail
      key={id}
      url={cfg.url}
      id={id!}
      kind={cfg.kind}
      permissions={cfg.permissions}
      disableOrgsChange={cfg.disableOrgsChange}
      {...cfg.detail}
    />
  );
}

export function resourceRoute(cfg: ResourcePagesConfig): AppRoute {
  const name = permissionNameFromUrl(cfg.url, cfg.permissions);
  const view = permissionFor(name, 'view');
  const add = permissionFor(name, 'add');
  const change = permissionFor(name, 'change');
  const guard = (perm: string, page: ReactNode) => <RequirePermission perms={perm}>{page}</RequirePermission>;
  const n = cfg.routeName;
  return {
    path: cfg.path,
    element: <ResourceScope />,
    handle: {
      title: cfg.titles.list,
      icon: cfg.icon,
      permissions: [view],
      app: name.app,
      resource: name.resource,
      disableOrgsChange: cfg.disableOrgsChange,
    },
    children: [
      {
        index: true,
        handle: { title: cfg.titles.list, name: `${n}List`, permissions: [view] },
        element: guard(
          view,
          <ResourceList
            url={cfg.url}
            permissions={cfg.permissions}
            disableOrgsChange={cfg.disableOrgsChange}
            urlQuery
            {...cfg.list}
          />,
        ),
      },
      ...(cfg.form
        ? [
            {
              path: 'create',
              handle: {
                title: cfg.titles.create ?? cfg.titles.list,
                name: `${n}Create`,
                permissions: [add],
                hidden: true,
              },
              element: guard(add, <FormPage url={cfg.url} form={cfg.form} />),
            },
            {
              path: ':id/update',
              handle: {
                title: cfg.titles.update ?? cfg.titles.detail,
                name: `${n}Update`,
                permissions: [change],
                hidden: true,
              },
              element: guard(change, <FormPage url={cfg.url} form={cfg.form} />),
            },
          ]
        : []),
      {
        path: ':id',
        handle: { title: cfg.titles.detail, name: `${n}Detail`, permissions: [view], hidden: true },
        element: guard(view, <DetailPage cfg={cfg} />),
      },
    ],
  };
}
