import { AppstoreAddOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { lazyPage } from '../../../lib/lazyPage.tsx';
import { offMenuRoute, resourceRoute } from '../../../resource/resourceRoute.tsx';
import { APPLETS_PAGE, APPLET_HOSTS_API, appletHostRoute, appletRoute } from './appletConfigs.ts';

/** Settings › Remote apps: the tabbed page, the applet detail and the applet hosts' pages (appletConfigs.ts). */
const pages = () => import('./appletPages.tsx');
const hostForm = lazyPage(
  () => import('../../console/assets/form/AssetFormPage.tsx'),
  ({ AssetFormPage }) => <AssetFormPage category="host" url={APPLET_HOSTS_API} appletHost />,
);

const hosts = resourceRoute(appletHostRoute, () => pages().then((m) => m.appletHostPages));
const hostRoutes: AppRoute = {
  ...hosts,
  children: [
    ...(hosts.children ?? []),
    {
      path: 'create',
      handle: {
        title: 'applets.route.AppletHostCreate',
        name: 'AppletHostCreate',
        permissions: ['terminal.add_applethost'],
        hidden: true,
      },
      ...hostForm,
    },
    {
      path: ':id/update',
      handle: {
        title: 'applets.route.AppletHostUpdate',
        name: 'AppletHostUpdate',
        permissions: ['terminal.change_applethost'],
        hidden: true,
      },
      ...hostForm,
    },
  ],
};

export const appletRoutes: AppRoute[] = [
  {
    path: 'applets',
    ...lazyPage(
      () => import('./AppletsPage.tsx'),
      ({ AppletsPage }) => <AppletsPage />,
    ),
    handle: {
      title: 'applets.route.Applets',
      name: 'Applets',
      icon: <AppstoreAddOutlined />,
      permissions: ['terminal.view_applet | terminal.view_applethost'],
    },
  },
  offMenuRoute(
    resourceRoute(appletRoute, () => pages().then((m) => m.appletPages)),
    `${APPLETS_PAGE}?activeTab=applets`,
  ),
  offMenuRoute(hostRoutes, `${APPLETS_PAGE}?activeTab=hosts`),
];
