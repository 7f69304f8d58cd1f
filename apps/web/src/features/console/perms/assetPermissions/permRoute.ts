import type { ResourceRouteConfig } from '../../../../resource/resourceRoute.tsx';

/**
 * The route part of the asset permissions (paths, URL, titles): in the route tree. The page parts
 * (columns, form, tabs) are `permPages.tsx`, loaded when one of the pages is opened.
 */
export const PERMS_API = '/api/v1/perms';
export const ASSET_PERMISSIONS_URL = `${PERMS_API}/asset-permissions/`;
export const ASSET_PERMISSIONS_PATH = '/console/perms/asset-permissions';

export const assetPermissionRoute: ResourceRouteConfig = {
  path: 'asset-permissions',
  url: ASSET_PERMISSIONS_URL,
  routeName: 'AssetPermission',
  titles: {
    list: 'perms.route.AssetPermissionList',
    create: 'perms.route.AssetPermissionCreate',
    update: 'perms.route.AssetPermissionUpdate',
    detail: 'perms.route.AssetPermissionDetail',
  },
  kind: 'perms.kind.AssetPermission',
};

/** The relation collections of a permission (add with POST, remove with DELETE `?assetpermission=&<field>=`). */
export const RELATIONS = {
  users: { url: `${PERMS_API}/asset-permissions-users-relations/`, field: 'user' },
  user_groups: { url: `${PERMS_API}/asset-permissions-user-groups-relations/`, field: 'usergroup' },
  assets: { url: `${PERMS_API}/asset-permissions-assets-relations/`, field: 'asset' },
  nodes: { url: `${PERMS_API}/asset-permissions-nodes-relations/`, field: 'node' },
} as const;
export type RelationName = keyof typeof RELATIONS;
