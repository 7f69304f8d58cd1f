import { Navigate } from 'react-router';
import { TeamOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../lib/routeTypes.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { lazyPage } from '../../../lib/lazyPage.tsx';
import { templateRoute } from './templateRoute.tsx';
import { automationRoutes, backupRoute } from './automations/automationRoutes.tsx';

const view = 'accounts.view_account';

// Who may open each page is its handle.permissions, checked by the layout; the pages load when opened.
const accountList = lazyPage(
  () => import('./AccountListPage.tsx'),
  ({ AccountListPage }) => <AccountListPage />,
);
const accountDetail = lazyPage(
  () => import('./AccountDetailPage.tsx'),
  ({ AccountDetailPage }) => <AccountDetailPage />,
);
const virtualDetail = lazyPage(
  () => import('./VirtualAccountPage.tsx'),
  ({ VirtualAccountPage }) => <VirtualAccountPage />,
);
const virtualUpdate = lazyPage(
  () => import('./VirtualAccountPage.tsx'),
  ({ VirtualAccountPage }) => <VirtualAccountPage edit />,
);

/** The console's accounts app: `/console/accounts/*`. */
export const accountsRoutes: AppRoute[] = [
  { index: true, element: <Navigate to="accounts/" replace /> },
  {
    path: 'accounts',
    handle: {
      title: 'accounts.route.AccountList',
      icon: <TeamOutlined />,
      app: 'accounts',
      resource: 'account',
      permissions: [view],
    },
    children: [
      {
        index: true,
        handle: { title: 'accounts.route.AccountList', name: 'AccountList', permissions: [view] },
        ...accountList,
      },
      {
        path: ':id',
        handle: {
          title: 'accounts.route.AccountDetail',
          name: 'AssetAccountDetail',
          hidden: true,
          permissions: [view],
        },
        ...accountDetail,
      },
    ],
  },
  {
    path: 'virtual-accounts',
    handle: {
      title: 'accounts.route.VirtualAccountList',
      hidden: true,
      app: 'accounts',
      resource: 'virtualaccount',
      permissions: ['accounts.view_virtualaccount'],
    },
    children: [
      { index: true, element: <Navigate to="/console/accounts/accounts/?activeTab=virtual" replace /> },
      {
        path: ':id',
        handle: { title: 'accounts.route.VirtualAccountDetail', name: 'VirtualAccountDetail', hidden: true },
        ...virtualDetail,
      },
      {
        path: ':id/update',
        handle: {
          title: 'accounts.route.VirtualAccountUpdate',
          name: 'VirtualAccountUpdate',
          hidden: true,
          permissions: ['accounts.change_virtualaccount'],
        },
        ...virtualUpdate,
      },
    ],
  },
  resourceRoute(templateRoute, () => import('./templatePages.tsx').then((m) => m.templatePages())),
  resourceRoute(automationRoutes.push_account, () =>
    import('./automations/automationPages.tsx').then((m) => m.automationPages('push_account')),
  ),
  resourceRoute(automationRoutes.change_secret, () =>
    import('./automations/automationPages.tsx').then((m) => m.automationPages('change_secret')),
  ),
  resourceRoute(automationRoutes.gather_accounts, () =>
    import('./automations/automationPages.tsx').then((m) => m.automationPages('gather_accounts')),
  ),
  resourceRoute(backupRoute, () => import('./automations/backupPages.tsx').then((m) => m.backupPages())),
];
