import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { DatabaseOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { RequirePermission } from '../../../lib/RequirePermission.tsx';
import { AssetListPage } from './assetList/AssetListPage.tsx';
import { ASSET_CATEGORY_ROUTES } from './categories.ts';
import { AssetDetailPage } from './detail/AssetDetailPage.tsx';
import { domainPages } from './domains/domainPages.tsx';
import { AssetFormPage } from './form/AssetFormPage.tsx';
import { labelPages } from './labels/labelPages.tsx';
import { PlatformFormPage } from './platforms/PlatformFormPage.tsx';
import { PlatformListPage } from './platforms/PlatformListPage.tsx';
import { platformPages } from './platforms/platformPages.tsx';
import { withFormPage, withListPage } from './routeHelpers.tsx';

const guard = (perm: string, page: ReactNode) => <RequirePermission perms={perm}>{page}</RequirePermission>;

/** `/console/assets/<category>s/create` and `/:id/update`: HostCreate … CustomUpdate. */
const categoryRoutes: AppRoute[] = ASSET_CATEGORY_ROUTES.map((c) => ({
  path: c.path,
  handle: {
    title: `assets.route.${c.name}List`,
    hidden: true,
    app: 'assets',
    resource: 'asset',
    permissions: ['assets.view_asset'],
  },
  children: [
    { index: true, element: <Navigate to={`/console/assets/assets/?activeTab=${c.category}`} replace /> },
    {
      path: 'create',
      handle: {
        title: `assets.route.${c.name}Create`,
        name: `${c.name}Create`,
        hidden: true,
        permissions: ['assets.add_asset'],
        activeMenu: '/console/assets/assets',
      },
      element: guard('assets.add_asset', <AssetFormPage key={c.path} category={c.category} url={c.url} />),
    },
    {
      path: ':id/update',
      handle: {
        title: `assets.route.${c.name}Update`,
        name: `${c.name}Update`,
        hidden: true,
        permissions: ['assets.change_asset'],
        activeMenu: '/console/assets/assets',
      },
      element: guard('assets.change_asset', <AssetFormPage key={c.path} category={c.category} url={c.url} />),
    },
  ],
}));

const gatewayForm = <AssetFormPage category="host" url="/api/v1/assets/gateways/" gateway />;

/** The console's assets app: `/console/assets/*`. */
export const assetsRoutes: AppRoute[] = [
  { index: true, element: <Navigate to="assets/" replace /> },
  {
    path: 'assets',
    handle: {
      title: 'assets.route.AssetList',
      icon: <DatabaseOutlined />,
      app: 'assets',
      resource: 'asset',
      permissions: ['assets.view_asset'],
    },
    children: [
      // The list (index) is the asset list page (assetList/AssetListPage.tsx).
      {
        index: true,
        handle: { title: 'assets.route.AssetList', name: 'AssetList', permissions: ['assets.view_asset'] },
        element: guard('assets.view_asset', <AssetListPage />),
      },
      {
        path: ':id',
        handle: {
          title: 'assets.route.AssetDetail',
          name: 'AssetDetail',
          hidden: true,
          permissions: ['assets.view_asset'],
        },
        element: guard('assets.view_asset', <AssetDetailPage />),
      },
    ],
  },
  ...categoryRoutes,
  withListPage(withFormPage(resourceRoute(platformPages), <PlatformFormPage />), <PlatformListPage />),
  resourceRoute(domainPages),
  {
    path: 'gateways',
    handle: {
      title: 'assets.route.GatewayList',
      hidden: true,
      app: 'assets',
      resource: 'gateway',
      permissions: ['assets.view_gateway'],
    },
    children: [
      { index: true, element: <Navigate to="/console/assets/domains/" replace /> },
      {
        path: 'create',
        handle: {
          title: 'assets.route.GatewayCreate',
          name: 'GatewayCreate',
          hidden: true,
          permissions: ['assets.add_gateway'],
        },
        element: guard('assets.add_gateway', gatewayForm),
      },
      {
        path: ':id/update',
        handle: {
          title: 'assets.route.GatewayUpdate',
          name: 'GatewayUpdate',
          hidden: true,
          permissions: ['assets.change_gateway'],
        },
        element: guard('assets.change_gateway', gatewayForm),
      },
    ],
  },
  resourceRoute(labelPages),
];
