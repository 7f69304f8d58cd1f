import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { MenuProps } from 'antd';
import { LazyDropdown } from '../lib/LazyDropdown.tsx';
import {
  ApiOutlined,
  CheckOutlined,
  DownOutlined,
  KeyOutlined,
  LockOutlined,
  LogoutOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Language } from '@gatehouse/contract';
import { useAppStore } from '../lib/appStore.ts';
import { logout } from '../app/session.ts';
import { hasRoute } from '../app/viewRoutes.ts';
import { changeLanguage, currentLanguage, LANGUAGE_NAMES } from '../lib/i18n/index.ts';
import { accountEntries, type AccountEntryId } from './navbarGates.ts';
import styles from './Layout.module.css';

const ICONS: Record<AccountEntryId, ReactNode> = {
  profile: <UserOutlined />,
  apiKey: <ApiOutlined />,
  tempPassword: <LockOutlined />,
  connectionToken: <KeyOutlined />,
  logout: <LogoutOutlined />,
};

const LANGUAGES: Language[] = ['en', 'zh', 'ja'];

/**
 * The account dropdown: Profile, API key, Temp password and Connection token
 * when permitted and built, the language, and Logout.
 */
export function AccountMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useAppStore((s) => s.profile);
  const perms = useAppStore((s) => s.perms);
  const settings = useAppStore((s) => s.publicSettings);
  const entries = accountEntries({ perms, settings, hasRoute });
  const pages = entries.filter((e) => e.id !== 'logout');
  const lang = currentLanguage();

  const items: MenuProps['items'] = [
    ...pages.map((e) => ({ key: e.id, icon: ICONS[e.id], label: t(e.label), onClick: () => navigate(e.to) })),
    ...(pages.length ? [{ type: 'divider' as const }] : []),
    {
      key: 'language',
      type: 'group' as const,
      label: t('common.language'),
      children: LANGUAGES.map((l) => ({
        key: `lang-${l}`,
        label: LANGUAGE_NAMES[l],
        extra: l === lang ? <CheckOutlined /> : undefined,
        // Reloads, as the original does: the server's own labels (roles, choices, metadata) follow
        // the language cookie only on the next requests.
        onClick: () => void changeLanguage(l).then(() => window.location.reload()),
      })),
    },
    { type: 'divider' as const },
    {
      key: 'logout',
      icon: ICONS.logout,
      label: t('common.logout'),
      onClick: () => {
        try {
          logout();
        } catch {
          /* leaving */
        }
      },
    },
  ];

  return (
    <LazyDropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <button type="button" className={styles.account} data-testid="account-menu" aria-label={t('shell.nav.account')}>
        {/* antd's Avatar as drawn: its module brings Avatar.Group, whose Popover pulls trigger code into the first load. */}
        <span className={styles.avatar} aria-hidden>
          <UserOutlined />
        </span>
        <span className={styles.accountName}>{profile?.name}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </button>
    </LazyDropdown>
  );
}
