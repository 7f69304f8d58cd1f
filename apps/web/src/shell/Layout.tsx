import { useMemo } from 'react';
import { Link, Outlet, useLocation, useMatches } from 'react-router';
import { Dropdown, Layout as AntLayout, Menu, Typography, type MenuProps } from 'antd';
import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import type { AppRoute, RouteMeta } from '../app/routeTypes.ts';
import { useAppStore } from '../app/store.ts';
import { logout } from '../app/session.ts';
import { usePageTitle } from './usePageTitle.ts';
import styles from './Layout.module.css';

function menuItems(view: AppRoute, perms: ReadonlySet<string>, t: (k: string) => string): MenuProps['items'] {
  const base = `/${view.path}`;
  return (view.children ?? [])
    .filter((r) => r.path && r.handle && !r.handle.hidden && hasPermission(perms, r.handle.permissions ?? []))
    .map((r) => ({ key: `${base}/${r.path}`, icon: r.handle!.icon, label: <Link to={`${base}/${r.path}`}>{t(r.handle!.title)}</Link> }));
}

/** The frame around every page of a view: sidebar menu, navbar, content. */
export function Layout({ view }: { view: AppRoute }) {
  const { t } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const profile = useAppStore((s) => s.profile);
  const perms = useAppStore((s) => s.perms);
  const org = useAppStore((s) => s.currentOrg);
  const title = usePageTitle();
  const items = useMemo(() => menuItems(view, perms, t), [view, perms, t]);
  const selected = matches.map((m) => m.pathname.replace(/\/$/, '')).filter((p) => p.startsWith(location.pathname.split('/').slice(0, 3).join('/')));

  const account: MenuProps['items'] = [
    { key: 'logout', icon: <LogoutOutlined />, label: t('common.logout'), onClick: () => { try { logout(); } catch { /* leaving */ } } },
  ];

  return (
    <AntLayout className={styles.root}>
      <AntLayout.Sider width={200} className={styles.sider} theme="dark">
        <Link to="/" className={styles.logo}>
          <img src="/ui/logo-text.svg" alt="Gatehouse" height={28} />
        </Link>
        <div className={styles.viewName}>{t(view.handle?.title ?? '')}</div>
        <Menu theme="dark" mode="inline" items={items} selectedKeys={selected} />
      </AntLayout.Sider>
      <AntLayout>
        <AntLayout.Header className={styles.header}>
          <Typography.Text className={styles.org} data-testid="current-org">
            {org ? `${t('common.organization')}: ${org.name}` : null}
          </Typography.Text>
          <Dropdown menu={{ items: account }} trigger={['click']}>
            <a className={styles.account} data-testid="account-menu" onClick={(e) => e.preventDefault()}>
              <UserOutlined /> {profile?.name} <DownOutlined />
            </a>
          </Dropdown>
        </AntLayout.Header>
        <AntLayout.Content className={styles.content}>
          {title && <Typography.Title level={4} className={styles.pageTitle}>{title}</Typography.Title>}
          <Outlet />
        </AntLayout.Content>
      </AntLayout>
    </AntLayout>
  );
}

export type { RouteMeta };
