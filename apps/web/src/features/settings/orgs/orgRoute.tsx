import { ApartmentOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';

/** Organisations, licensed: `/settings/orgs/` over `/api/v1/orgs/orgs/`. */
export const orgRoute: ResourceRouteConfig = {
  path: 'orgs',
  url: '/api/v1/orgs/orgs/',
  permissions: { app: 'orgs', resource: 'organization' },
  routeName: 'Organization',
  titles: {
    list: 'settings.route.OrganizationList',
    create: 'settings.route.OrganizationCreate',
    update: 'settings.route.OrganizationUpdate',
    detail: 'settings.route.OrganizationDetail',
  },
  kind: 'settings.kind.Organization',
  icon: <ApartmentOutlined />,
  disableOrgsChange: true,
};
