import { Navigate } from 'react-router';
import { TeamOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../../app/routeTypes.ts';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { RequirePermission } from '../../../shell/RequirePermission.tsx';
import { AccountDetailPage } from './AccountDetailPage.tsx';
import { AccountListPage } from './AccountListPage.tsx';
import { templatePages } from './templatePages.tsx';
import { VirtualAccountPage } from './VirtualAccountPage.tsx';

const view = 'accounts.view_account';

/** The console's accounts app: `/console/accounts/*` (console-reference §3.7–3.8). */
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
        element: (
          <RequirePermission perms={view}>
            <AccountListPage />
          </RequirePermission>
        ),
      },
      {
        path: ':id',
        handle: {
          title: 'accounts.route.AccountDetail',
          name: 'AssetAccountDetail',
          hidden: true,
          permissions: [view],
        },
        element: (
          <RequirePermission perms={view}>
            <AccountDetailPage />
          </RequirePermission>
        ),
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
        element: <VirtualAccountPage />,
      },
      {
        path: ':id/update',
        handle: {
          title: 'accounts.route.VirtualAccountUpdate',
          name: 'VirtualAccountUpdate',
          hidden: true,
          permissions: ['accounts.change_virtualaccount'],
        },
        element: <VirtualAccountPage edit />,
      },
    ],
  },
  resourceRoute(templatePages()),
];
