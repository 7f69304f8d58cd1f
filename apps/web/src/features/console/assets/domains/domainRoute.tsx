import { ClusterOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../../resource/resourceRoute.tsx';

/** Domains. */
export const domainRoute: ResourceRouteConfig = {
  path: 'domains',
  url: '/api/v1/assets/domains/',
  routeName: 'Domain',
  titles: {
    list: 'assets.route.DomainList',
    create: 'assets.route.DomainCreate',
    update: 'assets.route.DomainUpdate',
    detail: 'assets.route.DomainDetail',
  },
  kind: 'assets.kind.Domain',
  icon: <ClusterOutlined />,
};
