import { Navigate } from 'react-router';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { resourceRoute } from '../../resource/resourceRoute.tsx';
import { LicensePage } from './license/LicensePage.tsx';
import { orgPages } from './orgs/orgPages.tsx';

const orgs = resourceRoute(orgPages);

/**
 * The settings view: its own layout without the org selector. Built so
 * far: organisations (licensed) and the licence.
 */
export const settingsRoute: AppRoute = {
  path: 'settings',
  handle: {
    title: 'settings.route.Settings',
    switchable: true,
    showOrganization: false,
    permissions: ['settings.view_setting'],
  },
  children: [
    { index: true, element: <Navigate to="license" replace /> },
    { ...orgs, handle: { ...orgs.handle!, licenseRequired: true } },
    {
      path: 'license',
      element: <LicensePage />,
      handle: {
        title: 'settings.route.License',
        name: 'License',
        icon: <SafetyCertificateOutlined />,
        permissions: ['settings.view_setting | settings.change_license'],
      },
    },
  ],
};
