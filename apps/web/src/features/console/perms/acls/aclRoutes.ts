import type { ResourceRouteConfig } from '../../../../resource/resourceRoute.tsx';

/**
 * The route parts of the access-control rule kinds (paths, URLs, titles): in the route tree. Their
 * page parts (columns, forms, tabs) are `aclPages.tsx`, loaded when a page of the kind is opened.
 */
export const ACLS_API = '/api/v1/acls';

const titles = (n: string) => ({
  list: `acls.route.${n}List`,
  create: `acls.route.${n}Create`,
  update: `acls.route.${n}Update`,
  detail: `acls.route.${n}Detail`,
});

const route = (path: string, api: string, routeName: string, more: Partial<ResourceRouteConfig> = {}) => ({
  path,
  url: `${ACLS_API}/${api}/`,
  routeName,
  titles: titles(routeName),
  kind: `acls.kind.${routeName}`,
  ...more,
});

export const loginAclRoute: ResourceRouteConfig = route('login-acls', 'login-acls', 'LoginAcl', {
  disableOrgsChange: true,
});
export const loginAssetAclRoute: ResourceRouteConfig = route('login-asset-acls', 'login-asset-acls', 'LoginAssetAcl');
export const commandFilterAclRoute: ResourceRouteConfig = route('cmd-acls', 'command-filter-acls', 'CommandFilterAcl');
export const commandGroupRoute: ResourceRouteConfig = route('cmd-groups', 'command-groups', 'CommandGroup');
export const connectMethodAclRoute: ResourceRouteConfig = route(
  'connect-method-acls',
  'connect-method-acls',
  'ConnectMethodAcl',
  { disableOrgsChange: true },
);
