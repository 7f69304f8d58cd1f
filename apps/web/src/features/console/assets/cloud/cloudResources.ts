import type { ResourceRouteConfig } from '../../../../resource/resourceRoute.tsx';

/** The route part of cloud sync's three resources (paths, titles, permissions): cloudRoutes.tsx mounts them. */
const xpack = (resource: string) => ({ app: 'xpack', resource });

export const cloudTaskRoute: ResourceRouteConfig = {
  path: 'sync-instance-tasks',
  url: '/api/v1/xpack/cloud/sync-instance-tasks/',
  routeName: 'SyncInstanceTask',
  titles: {
    list: 'assets.cloud.CloudCenter',
    create: 'assets.cloud.TaskCreate',
    update: 'assets.cloud.TaskUpdate',
    detail: 'assets.cloud.TaskDetail',
  },
  kind: 'assets.cloud.Task',
  permissions: xpack('syncinstancetask'),
};

export const cloudAccountRoute: ResourceRouteConfig = {
  path: 'accounts',
  url: '/api/v1/xpack/cloud/accounts/',
  routeName: 'CloudAccount',
  titles: {
    list: 'assets.cloud.CloudCenter',
    create: 'assets.cloud.AccountCreate',
    update: 'assets.cloud.AccountUpdate',
    detail: 'assets.cloud.AccountDetail',
  },
  kind: 'assets.cloud.Account',
  permissions: xpack('account'),
};

export const cloudStrategyRoute: ResourceRouteConfig = {
  path: 'strategies',
  url: '/api/v1/xpack/cloud/strategies/',
  routeName: 'CloudStrategy',
  titles: {
    list: 'assets.cloud.CloudCenter',
    create: 'assets.cloud.StrategyCreate',
    update: 'assets.cloud.StrategyUpdate',
    detail: 'assets.cloud.StrategyDetail',
  },
  kind: 'assets.cloud.Strategy',
  permissions: xpack('strategy'),
};
