import type { ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';

/**
 * Settings › Remote apps (`/settings/applets`): the applets' card grid and the applet hosts' list
 * are tabs of one page; an applet's detail is `/settings/applets/applets/:id`, the hosts' pages
 * `/settings/applets/hosts/create|:id|:id/update` (the console reference's paths).
 */
export const APPLETS_PAGE = '/settings/applets';
export const APPLETS_API = '/api/v1/terminal/applets/';
export const APPLET_HOSTS_API = '/api/v1/terminal/applet-hosts/';
export const DEPLOYMENTS_API = '/api/v1/terminal/applet-host-deployments/';
export const PUBLICATIONS_API = '/api/v1/terminal/applet-publications/';

export const appletRoute: ResourceRouteConfig = {
  path: 'applets/applets',
  url: APPLETS_API,
  routeName: 'Applet',
  titles: { list: 'applets.route.Applets', detail: 'applets.route.AppletDetail' },
  kind: 'applets.kind.applet',
  disableOrgsChange: true,
  readOnly: true,
};

export const appletHostRoute: ResourceRouteConfig = {
  path: 'applets/hosts',
  url: APPLET_HOSTS_API,
  routeName: 'AppletHost',
  titles: {
    list: 'applets.route.AppletHostList',
    create: 'applets.route.AppletHostCreate',
    update: 'applets.route.AppletHostUpdate',
    detail: 'applets.route.AppletHostDetail',
  },
  kind: 'applets.kind.appletHost',
  disableOrgsChange: true,
  readOnly: true,
};
