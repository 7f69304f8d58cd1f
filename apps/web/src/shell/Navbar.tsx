import { Link } from 'react-router';
import {
  CodeOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  SolutionOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ViewName } from '../lib/orgs.ts';
import { hasRoute } from '../app/viewRoutes.ts';
import { AccountMenu } from './AccountMenu.tsx';
import { HelpMenu } from './HelpMenu.tsx';
import { MessageBell } from './MessageBell.tsx';
import { MessageServices } from './messages/MessageServices.tsx';
import { SessionServices } from './session/SessionServices.tsx';
import { sqlDebugOn } from '../lib/sqlDigest.ts';
import { LazyWhen, lazyComponent } from '../lib/LazyWhen.tsx';
import { navbarGates, SETTINGS_PATH, TICKETS_PATH, webTerminalUrl } from './navbarGates.ts';
import { OrgSelector } from './OrgSelector.tsx';
import { TicketBadge, useOpenAssignedTickets } from './TicketBadge.tsx';
import { useAppStore } from '../lib/appStore.ts';
import { useShellStore } from './shellStore.ts';
import { useVisibility } from './useShellContext.ts';
import styles from './Layout.module.css';

/** The SQL counters are a developer tip: their code loads only when they are turned on. */
const SqlDigestTags = lazyComponent(() => import('./session/SqlDigestTags.tsx').then((m) => m.SqlDigestTags));

/**
 * The navbar: sidebar toggle and organisation selector on the left; site messages,
 * web terminal, tickets, system settings, help and the account on the right, each behind its gate.
 */
export function Navbar({ view }: { view: ViewName }) {
  const { t } = useTranslation();
  const opened = useShellStore((s) => s.sidebarOpened);
  const toggle = useShellStore((s) => s.toggleSidebar);
  const { perms, settings } = useVisibility();
  const gates = navbarGates({ perms, settings, hasRoute });
  const me = useAppStore((s) => s.profile?.id);
  const openTickets = useOpenAssignedTickets(gates.tickets ? me : undefined);

  return (
    <header className={styles.header}>
      <div className={styles.headerLeft}>
        <button
          type="button"
          className={`${styles.navButton} ${styles.hamburger}`}
          onClick={toggle}
          aria-label={t('shell.nav.toggleSidebar')}
          aria-expanded={opened}
          data-testid="sidebar-toggle"
        >
          {opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        </button>
        <OrgSelector view={view} />
        <LazyWhen when={sqlDebugOn()}>
          <SqlDigestTags />
        </LazyWhen>
      </div>
      <div className={styles.headerRight}>
        <MessageBell />
        {gates.webTerminal && (
          <button
            type="button"
            className={styles.navButton}
            aria-label={t('shell.nav.webTerminal')}
            title={t('shell.nav.webTerminal')}
            onClick={() => window.open(webTerminalUrl(), '_blank', 'noopener')}
            data-testid="web-terminal"
          >
            <CodeOutlined />
          </button>
        )}
        {gates.tickets && (
          <Link
            to={TICKETS_PATH}
            className={styles.navButton}
            aria-label={t('shell.nav.tickets')}
            title={t('shell.nav.tickets')}
            data-testid="tickets-link"
          >
            <span className={styles.badgeHolder}>
              <SolutionOutlined />
              <TicketBadge count={openTickets} />
            </span>
          </Link>
        )}
        {gates.settings && (
          <Link
            to={SETTINGS_PATH}
            className={styles.navButton}
            aria-label={t('shell.nav.settings')}
            title={t('shell.nav.settings')}
          >
            <SettingOutlined />
          </Link>
        )}
        <HelpMenu />
        <AccountMenu />
        <SessionServices />
        <MessageServices />
      </div>
    </header>
  );
}
