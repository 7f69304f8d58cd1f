import { Navigate } from 'react-router';
import { DatabaseOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { lazyPage } from '../../../lib/lazyPage.tsx';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { ASSET_CATEGORY_ROUTES } from './categories.ts';
import type { AssetFormPageProps } from './form/AssetFormPage.tsx';
import { domainRoute } from './domains/domainRoute.tsx';
import { labelRoute } from './labels/labelRoute.tsx';
import { cloudRoute } from './cloud/cloudRoutes.tsx';
import { platformRoute } from './platforms/platformRoute.tsx';
import { withFormPage, withListPage } from './routeHelpers.tsx';

/** The assets app's pages, each loaded when its route is first opened (their permissions are the routes'). */
const assetForm = (props: AssetFormPageProps) =>
  lazyPage(
    () => import('./form/AssetFormPage.tsx'),
    ({ AssetFormPage }) => <AssetFormPage key={props.url} {...props} />,
  );
const assetList = lazyPage(
  () => import('./assetList/AssetListPage.tsx'),
  ({ AssetListPage }) => <AssetListPage />,
);
const assetDetail = lazyPage(
  () => import('./detail/AssetDetailPage.tsx'),
  ({ AssetDetailPage }) => <AssetDetailPage />,
);
const platforms = resourceRoute(platformRoute, () =>
  import('./platforms/platformPages.tsx').then((m) => m.platformPages),
);
const platformForm = lazyPage(
  () => import('./platforms/PlatformFormPage.tsx'),
  ({ PlatformFormPage }) => <PlatformFormPage />,
);
const platformList = lazyPage(
  () => import('./platforms/PlatformListPage.tsx'),
  ({ PlatformListPage }) => <PlatformListPage />,
);

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
      ...assetForm({ category: c.category, url: c.url }),
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
      ...assetForm({ category: c.category, url: c.url }),
    },
  ],
}));

const gatewayForm = assetForm({ category: 'host', url: '/api/v1/assets/gateways/', gateway: true });

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
        ...assetList,
      },
      {
        path: ':id',
        handle: {
          title: 'assets.route.AssetDetail',
          name: 'AssetDetail',
          hidden: true,
          permissions: ['assets.view_asset'],
        },
        ...assetDetail,
      },
    ],
  },
  ...categoryRoutes,
  withListPage(withFormPage(platforms, platformForm), platformList),
  resourceRoute(domainRoute, () => import('./domains/domainPages.tsx').then((m) => m.domainPages)),
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
        ...gatewayForm,
      },
      {
        path: ':id/update',
        handle: {
          title: 'assets.route.GatewayUpdate',
          name: 'GatewayUpdate',
          hidden: true,
          permissions: ['assets.change_gateway'],
        },
        ...gatewayForm,
      },
    ],
  },
  resourceRoute(labelRoute, () => import('./labels/labelPages.tsx').then((m) => m.labelPages)),
  cloudRoute,
];
