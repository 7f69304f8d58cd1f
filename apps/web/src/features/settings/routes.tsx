import { Navigate } from 'react-router';
import {
  ClearOutlined,
  CodeOutlined,
  IdcardOutlined,
  LockOutlined,
  AppstoreOutlined,
  ScheduleOutlined,
  MailOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  SkinOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { resourceRoute } from '../../resource/resourceRoute.tsx';
import { lazyPage } from '../../lib/lazyPage.tsx';
import { orgRoute } from './orgs/orgRoute.tsx';
import { terminalResourceRoutes } from './terminal/terminalRoutes.tsx';
import { appletRoutes } from './applets/appletRoutes.tsx';

const settingsPages = () => import('./form/SettingsPages.tsx');
const orgs = resourceRoute(orgRoute, () => import('./orgs/orgPages.tsx').then((m) => m.orgPages));

/**
 * The settings view: its own layout without the org selector. Built so far: organisations
 * (licensed), the settings forms (basic, security, authentication with LDAP, terminal with its storages and
 * endpoints: terminal/, cleaning: form/), the system tools (tools/) and the licence.
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
      path: 'auth',
      ...lazyPage(settingsPages, ({ AuthSettingsPage }) => <AuthSettingsPage />),
      handle: {
        title: 'settings.route.Auth',
        name: 'Auth',
        icon: <IdcardOutlined />,
        permissions: ['settings.change_auth'],
      },
    },
    {
      path: 'msg',
      ...lazyPage(settingsPages, ({ MessagesSettingsPage }) => <MessagesSettingsPage />),
      handle: {
        title: 'settings.route.Messages',
        name: 'Messages',
        icon: <MailOutlined />,
        permissions: ['settings.change_email'],
      },
    },
    {
      path: 'features',
      ...lazyPage(settingsPages, ({ FeaturesSettingsPage }) => <FeaturesSettingsPage />),
      handle: {
        title: 'settings.route.Features',
        name: 'Features',
        icon: <AppstoreOutlined />,
        // Its categories are for superusers (contract §4.18); the server checks that.
        permissions: ['settings.change_setting'],
      },
    },
    {
      path: 'terminal',
      ...lazyPage(
        () => import('./terminal/TerminalSettingsPage.tsx'),
        ({ TerminalSettingsPage }) => <TerminalSettingsPage />,
      ),
      handle: {
        title: 'settings.route.Terminal',
        name: 'Terminal',
        icon: <CodeOutlined />,
        permissions: ['settings.change_terminal'],
      },
    },
    ...terminalResourceRoutes,
    ...appletRoutes,
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
      path: 'interface',
      ...lazyPage(
        () => import('./interface/InterfacePage.tsx'),
        ({ InterfacePage }) => <InterfacePage />,
      ),
      handle: {
        title: 'settingsTerminal.interface.route',
        name: 'Interface',
        icon: <SkinOutlined />,
        permissions: ['settings.change_interface'],
        licenseRequired: true,
      },
    },
    {
      path: 'tools',
      ...lazyPage(
        () => import('./tools/ToolsPage.tsx'),
        ({ ToolsPage }) => <ToolsPage />,
      ),
      handle: {
        title: 'settingsTerminal.route.Tools',
        name: 'Tools',
        icon: <ToolOutlined />,
        permissions: ['settings.view_setting'],
      },
    },
    {
      path: 'tasks',
      ...lazyPage(
        () => import('./tasks/TasksPage.tsx'),
        ({ TasksPage }) => <TasksPage />,
      ),
      handle: {
        title: 'settings.route.Tasks',
        name: 'Tasks',
        icon: <ScheduleOutlined />,
        permissions: ['ops.view_celerytask'],
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
