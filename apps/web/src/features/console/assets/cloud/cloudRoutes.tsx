import { Navigate } from 'react-router';
import { CloudSyncOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../../lib/routeTypes.ts';
import { resourceRoute } from '../../../../resource/resourceRoute.tsx';
import { cloudAccountRoute, cloudStrategyRoute, cloudTaskRoute } from './cloudResources.ts';

/**
 * Cloud sync's pages (console reference §3.12): `/console/assets/cloud/` is the cloud center, tabs
 * of sync tasks, accounts and strategies, each a resource of the generic list, form and detail.
 * An extension feature: without a valid licence the routes are hidden (docs/cloud.md).
 */
const pages = () => import('./cloudPages.tsx');

export const cloudRoute: AppRoute = {
  path: 'cloud',
  handle: {
    title: 'assets.cloud.CloudCenter',
    icon: <CloudSyncOutlined />,
    licenseRequired: true,
    permissions: ['xpack.view_syncinstancetask'],
  },
  children: [
    { index: true, element: <Navigate to="sync-instance-tasks/" replace /> },
    resourceRoute(cloudTaskRoute, () => pages().then((m) => m.cloudTaskPages)),
    resourceRoute(cloudAccountRoute, () => pages().then((m) => m.cloudAccountPages)),
    resourceRoute(cloudStrategyRoute, () => pages().then((m) => m.cloudStrategyPages)),
  ],
};
