import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '@gatehouse/contract';
import type { PreparedRoute } from '../lib/routeTypes.ts';
import { useAppStore } from '../lib/appStore.ts';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, useShellStore } from './shellStore.ts';
import { SidebarMenu } from './SidebarMenu.tsx';
import { ViewSwitcher } from './ViewSwitcher.tsx';
import styles from './Layout.module.css';

/**
 * The left sidebar: logo, view switcher and menu. 200 px open, 54 px collapsed; on a
 * narrow screen it is hidden, or shown over the page with a mask that closes it.
 */
export function Sidebar({ view }: { view: PreparedRoute }) {
  const { t } = useTranslation();
  const opened = useShellStore((s) => s.sidebarOpened);
  const device = useShellStore((s) => s.device);
  const closeSidebar = useShellStore((s) => s.closeSidebar);
  const iface = useAppStore((s) => s.publicSettings?.INTERFACE);
  const mobile = device === 'mobile';
  const collapsed = !opened && !mobile;
  const width = collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH;
  const logo = collapsed ? iface?.logo_logout || '/ui/logo.svg' : iface?.logo_index || '/ui/logo-text.svg';
  const className = [
    styles.sidebar,
    collapsed ? styles.collapsed : '',
    mobile && !opened ? styles.sidebarHidden : '',
  ].join(' ');

  return (
    <>
      {mobile && opened && <div className={styles.mask} onClick={closeSidebar} data-testid="sidebar-mask" />}
      <aside
        className={className}
        style={{ width }}
        data-testid="sidebar"
        data-state={opened ? 'open' : 'closed'}
        aria-hidden={mobile && !opened}
        aria-label={t(view.handle.title)}
      >
        <Link to="/" className={styles.logo} aria-label={t('shell.home')}>
          <img src={logo} alt={iface?.login_title || PRODUCT_NAME} />
        </Link>
        <ViewSwitcher view={view} collapsed={collapsed} />
        <nav className={styles.menu}>
          <SidebarMenu view={view} collapsed={collapsed} />
        </nav>
      </aside>
    </>
  );
}
