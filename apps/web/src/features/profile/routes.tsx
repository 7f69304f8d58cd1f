import { Navigate } from 'react-router';
import {
  ClockCircleOutlined,
  ControlOutlined,
  IdcardOutlined,
  KeyOutlined,
  LinkOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { lazyPage } from '../../lib/lazyPage.tsx';

/**
 * The profile view (spec 02 "Profile children"): every signed-in user's own pages, outside any
 * organisation. `/profile` goes to the info page; the improvement page is not in the menu.
 */
const open = { permissions: [] as string[], showOrganization: false };

export const profileRoute: AppRoute = {
  path: 'profile',
  handle: { title: 'profile.route.profile', ...open },
  children: [
    { index: true, element: <Navigate to="info" replace /> },
    {
      path: 'info',
      ...lazyPage(
        () => import('./ProfileInfoPage.tsx'),
        ({ ProfileInfoPage }) => <ProfileInfoPage />,
      ),
      handle: { title: 'profile.route.info', name: 'UserProfile', icon: <IdcardOutlined />, ...open },
    },
    {
      path: 'setting',
      ...lazyPage(
        () => import('./ProfileSettingPage.tsx'),
        ({ ProfileSettingPage }) => <ProfileSettingPage />,
      ),
      handle: { title: 'profile.route.setting', name: 'ProfileSetting', icon: <SettingOutlined />, ...open },
    },
    {
      path: 'key',
      ...lazyPage(
        () => import('./ApiKeyPage.tsx'),
        ({ ApiKeyPage }) => <ApiKeyPage />,
      ),
      handle: {
        title: 'profile.route.key',
        name: 'ApiKey',
        icon: <KeyOutlined />,
        ...open,
        permissions: ['authentication.view_accesskey'],
      },
    },
    {
      path: 'temp-password',
      ...lazyPage(
        () => import('./TempPasswordPage.tsx'),
        ({ TempPasswordPage }) => <TempPasswordPage />,
      ),
      handle: {
        title: 'profile.route.tempPassword',
        name: 'TempPassword',
        icon: <ClockCircleOutlined />,
        ...open,
        permissions: ['authentication.view_temptoken'],
        hidden: ({ settings }) => !settings?.AUTH_TEMP_TOKEN,
      },
    },
    {
      path: 'passkeys',
      ...lazyPage(
        () => import('./PasskeysPage.tsx'),
        ({ PasskeysPage }) => <PasskeysPage />,
      ),
      handle: {
        title: 'profile.route.passkeys',
        name: 'Passkeys',
        icon: <SafetyCertificateOutlined />,
        ...open,
        permissions: ['authentication.view_passkey'],
        hidden: ({ settings }) => !settings?.AUTH_PASSKEY,
      },
    },
    {
      path: 'connection-token',
      ...lazyPage(
        () => import('./ConnectionTokenPage.tsx'),
        ({ ConnectionTokenPage }) => <ConnectionTokenPage />,
      ),
      handle: {
        title: 'profile.route.connectionToken',
        name: 'ConnectionToken',
        icon: <LinkOutlined />,
        ...open,
        permissions: ['authentication.view_connectiontoken'],
      },
    },
    {
      path: 'user/setting',
      ...lazyPage(
        () => import('./PreferencePage.tsx'),
        ({ PreferencePage }) => <PreferencePage />,
      ),
      // `type: 'app'`: one entry of the menu, not a resource grouped under a "User" heading.
      handle: {
        title: 'profile.route.preference',
        name: 'Preference',
        icon: <ControlOutlined />,
        type: 'app',
        ...open,
      },
    },
    {
      path: 'improvement',
      ...lazyPage(
        () => import('./ImprovementPage.tsx'),
        ({ ImprovementPage }) => <ImprovementPage />,
      ),
      handle: { title: 'profile.route.improvement', name: 'Improvement', hidden: true, ...open },
    },
  ],
};
