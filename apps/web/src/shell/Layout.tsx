import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { viewOfPath } from '../app/views.ts';
import { lazyComponent } from '../lib/LazyWhen.tsx';
import type { ViewName } from '../lib/orgs.ts';
import { Footer } from './Footer.tsx';
import { Navbar } from './Navbar.tsx';
import { PageBanners } from './PageBanners.tsx';
import { AnnouncementBanner } from './AnnouncementBanner.tsx';
import { contentMargin, deviceOfWidth, useShellStore } from './shellStore.ts';
import { Sidebar } from './Sidebar.tsx';
import { TagsBar } from './TagsBar.tsx';
import { useCurrentView, usePageAccess } from './useShellContext.ts';
import { usePageTitle } from '../lib/usePageTitle.ts';
import styles from './Layout.module.css';

// The 403 and 404 pages (antd Result and its pictures) load only when shown.
const ForbiddenPage = lazyComponent(() => import('../lib/ForbiddenPage.tsx').then((m) => m.ForbiddenPage));
const NotFoundPage = lazyComponent(() => import('./NotFoundPage.tsx').then((m) => m.NotFoundPage));

/** Follows the window width: below 992 px the layout is mobile and the sidebar closes. */
function useDevice(): void {
  const setDevice = useShellStore((s) => s.setDevice);
  useEffect(() => {
    const update = () => setDevice(deviceOfWidth(window.innerWidth));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [setDevice]);
}

/** The frame around every page: sidebar, navbar, tags bar, heading, footer. */
export function Layout() {
  useDevice();
  const { pathname } = useLocation();
  const view = useCurrentView();
  const viewName = view.handle.resolved.view as ViewName;
  const setLastView = useShellStore((s) => s.setLastView);
  const device = useShellStore((s) => s.device);
  const opened = useShellStore((s) => s.sidebarOpened);
  const closeSidebar = useShellStore((s) => s.closeSidebar);
  const title = usePageTitle();
  const access = usePageAccess();
  const inView = viewOfPath(pathname) === viewName;

  useEffect(() => {
    if (inView) setLastView(viewName);
  }, [inView, viewName, setLastView]);

  // On a narrow screen, the overlay sidebar closes once a page is chosen.
  useEffect(() => {
    if (device === 'mobile') closeSidebar();
  }, [pathname, device, closeSidebar]);

  let page = <Outlet />;
  if (access === 'forbidden') page = <ForbiddenPage />;
  else if (access === 'notFound') page = <NotFoundPage />;

  return (
    <div className={styles.root} data-device={device}>
      <Sidebar view={view} />
      <div className={styles.main} style={{ marginLeft: contentMargin(device, opened) }}>
        <Navbar view={viewName} />
        <TagsBar view={view} />
        {inView && title && access === 'ok' && (
          <div className={styles.heading}>
            <h1 className={styles.title}>{title}</h1>
            <AnnouncementBanner />
            <PageBanners />
          </div>
        )}
        <main className={styles.content}>
          <Suspense fallback={null}>{page}</Suspense>
        </main>
        <Footer />
      </div>
    </div>
  );
}
