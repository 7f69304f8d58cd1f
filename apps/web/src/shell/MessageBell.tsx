import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { badgeText } from './messages/messageFormat.ts';
import { useShellStore } from './shellStore.ts';
import styles from './Layout.module.css';

/**
 * The site-message bell with its unread badge (at most 99+). The count comes from the shell store,
 * which the site-message feature keeps up to date; the bell asks that feature to open its drawer.
 */
export function MessageBell({ count }: { count?: number }) {
  const { t } = useTranslation();
  const stored = useShellStore((s) => s.unreadMessages);
  const setOpen = useShellStore((s) => s.setMessagesOpen);
  const unread = count ?? stored;
  return (
    <button
      type="button"
      className={styles.navButton}
      aria-label={t('shell.nav.messages')}
      title={t('shell.nav.messages')}
      onClick={() => setOpen(true)}
      data-testid="message-bell"
    >
      {/* antd's small Badge as drawn (its motion and scroll-number code stay out of the first load). */}
      <span className={styles.badgeHolder}>
        <BellOutlined style={{ fontSize: 17, color: 'inherit' }} />
        {unread > 0 && (
          <sup className={styles.badge} title={badgeText(unread)} data-testid="message-badge">
            {badgeText(unread)}
          </sup>
        )}
      </span>
    </button>
  );
}
