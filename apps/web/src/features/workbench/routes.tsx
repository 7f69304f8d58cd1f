import { Navigate } from 'react-router';
import { CodeOutlined, DesktopOutlined, FolderOpenOutlined, HomeOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { lazyPage } from '../../lib/lazyPage.tsx';
import { opsRoute } from './ops/opsRoutes.tsx';

/**
 * The workbench view (spec 02 "Workbench children"): always offered, marked for the
 * view switcher. `/workbench` goes to the home page; the other children come with their areas
 * (the job centre: `ops/opsRoutes.tsx`).
 */
const open = { permissions: [] as string[] };

export const workbenchRoute: AppRoute = {
  path: 'workbench',
  handle: { title: 'route.Workbench', switchable: true, ...open },
  children: [
    { index: true, element: <Navigate to="home" replace /> },
    {
      path: 'home',
      ...lazyPage(
        () => import('./WorkbenchHomePage.tsx'),
        ({ WorkbenchHomePage }) => <WorkbenchHomePage />,
      ),
      handle: { title: 'workbench.route.home', name: 'WorkbenchHome', icon: <HomeOutlined />, affix: true, ...open },
    },
    {
      path: 'assets',
      ...lazyPage(
        () => import('./myAssets/MyAssetsPage.tsx'),
        ({ MyAssetsPage }) => <MyAssetsPage />,
      ),
      handle: {
        title: 'workbench.route.assets',
        name: 'MyAssets',
        icon: <DesktopOutlined />,
        permissions: ['perms.view_myassets'],
      },
    },
    // Pages outside the console, opened in a new tab (console reference, workbench menu).
    {
      path: 'web-terminal',
      handle: {
        title: 'workbench.route.webTerminal',
        icon: <CodeOutlined />,
        externalUrl: '/luna/',
        permissions: ['rbac.view_webterminal'],
      },
    },
    {
      path: 'file-manager',
      handle: {
        title: 'workbench.route.fileManager',
        icon: <FolderOpenOutlined />,
        externalUrl: '/koko/elfinder/sftp/',
        permissions: ['rbac.view_filemanager'],
      },
    },
    opsRoute,
  ],
};
