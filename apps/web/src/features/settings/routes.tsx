import { Navigate } from 'react-router';
import {
  ClearOutlined,
  CodeOutlined,
  LockOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { resourceRoute } from '../../resource/resourceRoute.tsx';
import { lazyPage } from '../../lib/lazyPage.tsx';
import { orgRoute } from './orgs/orgRoute.tsx';

const settingsPages = () => import('./form/SettingsPages.tsx');
const orgs = resourceRoute(orgRoute, () => import('./orgs/orgPages.tsx').then((m) => m.orgPages));

/**
 * The settings view: its own layout without the org selector. Built so far: organisations
 * (licensed), the settings forms (basic, security, terminal, cleaning: form/) and the licence.
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
    { index: true, element: <Navigate to="basic" replace /> },
    {
      path: 'basic',
      ...lazyPage(settingsPages, ({ BasicSettingsPage }) => <BasicSettingsPage />),
      handle: {
        title: 'settings.route.Basic',
        name: 'Basic',
        icon: <SettingOutlined />,
        permissions: ['settings.view_setting'],
      },
    },
    { ...orgs, handle: { ...orgs.handle!, licenseRequired: true } },
    {
      path: 'security',
      ...lazyPage(settingsPages, ({ SecuritySettingsPage }) => <SecuritySettingsPage />),
      handle: {
        title: 'settings.route.Security',
        name: 'Security',
        icon: <LockOutlined />,
        permissions: ['settings.change_security'],
      },
    },
    {
      path: 'terminal',
      ...lazyPage(settingsPages, ({ TerminalSettingsPage }) => <TerminalSettingsPage />),
      handle: {
        title: 'settings.route.Terminal',
        name: 'Terminal',
        icon: <CodeOutlined />,
        permissions: ['settings.change_terminal'],
      },
    },
    {
      path: 'clean',
      ...lazyPage(settingsPages, ({ CleaningSettingsPage }) => <CleaningSettingsPage />),
      handle: {
        title: 'settings.route.Cleaning',
        name: 'Cleaning',
        icon: <ClearOutlined />,
        permissions: ['settings.change_clean'],
      },
    },
    {
      path: 'license',
      ...lazyPage(
        () => import('./license/LicensePage.tsx'),
        ({ LicensePage }) => <LicensePage />,
      ),
      handle: {
        title: 'settings.route.License',
        name: 'License',
        icon: <SafetyCertificateOutlined />,
        permissions: ['settings.view_setting | settings.change_license'],
      },
    },
  ],
};
