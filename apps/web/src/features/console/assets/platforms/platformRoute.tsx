import { CloudServerOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../../resource/resourceRoute.tsx';

export const PLATFORMS_URL = '/api/v1/assets/platforms/';

/** Platforms: builtin ones are read-only (the server answers 403 "Internal platform"). */
export const platformRoute: ResourceRouteConfig = {
  path: 'platforms',
  url: PLATFORMS_URL,
  routeName: 'Platform',
  titles: {
    list: 'assets.route.PlatformList',
    create: 'assets.route.PlatformCreate',
    update: 'assets.route.PlatformUpdate',
    detail: 'assets.route.PlatformDetail',
  },
  kind: 'assets.kind.Platform',
  icon: <CloudServerOutlined />,
};
