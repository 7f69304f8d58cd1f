import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, type MenuProps } from 'antd';
import { LazyDropdown } from '../lib/LazyDropdown.tsx';
import {
  AuditOutlined,
  DesktopOutlined,
  DownOutlined,
  LaptopOutlined,
  SettingOutlined,
  SolutionOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PreparedRoute } from '../lib/routeTypes.ts';
import { useAppStore } from '../lib/appStore.ts';
import { storePreView, switcherViews, type SwitchableView } from '../app/views.ts';
import { SWITCHER_MARKED_VIEWS, viewRoute } from '../app/viewRoutes.ts';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, useShellStore } from './shellStore.ts';
import styles from './Layout.module.css';

export const VIEW_SWITCHER_TIP_KEY = 'viewSwitcherTip';

const VIEW_ICONS: Record<SwitchableView, ReactNode> = {
  console: <DesktopOutlined />,
  audit: <AuditOutlined />,
  workbench: <LaptopOutlined />,
  tickets: <SolutionOutlined />,
  settings: <SettingOutlined />,
};

const tipSeen = () => {
  try {
    return Boolean(localStorage.getItem(VIEW_SWITCHER_TIP_KEY));
  } catch {
    return true;
  }
};

/**
 * The view switcher: the views marked for it that the user may use. Choosing one
 * stores PreView, resets the app state and goes there. A one-time tip explains it on desktops.
 */
export function ViewSwitcher({ view, collapsed }: { view: PreparedRoute; collapsed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useAppStore((s) => s.profile);
  const settings = useAppStore((s) => s.publicSettings);
  const reset = useAppStore((s) => s.reset);
  const device = useShellStore((s) => s.device);
  const [showTip, setShowTip] = useState(() => !tipSeen());
  const views = profile ? switcherViews(SWITCHER_MARKED_VIEWS, profile, settings) : [];
  const current = view.handle.resolved.view as SwitchableView;

  const dismissTip = () => {
    localStorage.setItem(VIEW_SWITCHER_TIP_KEY, '1');
    setShowTip(false);
  };
  const choose = (target: SwitchableView) => {
    dismissTip();
    storePreView(target);
    void Promise.resolve(navigate(`/${target}`)).then(() => reset());
  };

  const items: MenuProps['items'] = views.map((v) => ({
    key: v,
    icon: VIEW_ICONS[v],
    label: t(viewRoute(v)?.handle.title ?? v),
    onClick: () => choose(v),
  }));
  const name = t(view.handle.title);
  const button = (
    <button
      type="button"
      className={styles.viewSwitcher}
      aria-label={t('shell.views.switch')}
      title={collapsed ? name : undefined}
      data-testid="view-switcher"
    >
      {VIEW_ICONS[current] ?? <DesktopOutlined />}
      {!collapsed && <span className={styles.viewSwitcherName}>{name}</span>}
      {!collapsed && <DownOutlined className={styles.viewSwitcherArrow} />}
    </button>
  );
  const dropdown = (
    <LazyDropdown
      menu={{ items, selectable: true, selectedKeys: [current] }}
      trigger={['click']}
      placement="bottomLeft"
    >
      {button}
    </LazyDropdown>
  );
  if (!(showTip && device === 'desktop')) return dropdown;
  // antd's Popover (placement right) drawn in CSS: its trigger code would join every first load for a tip
  // shown once. Right of the sidebar, level with the switcher (under the 50 px logo).
  return (
    <>
      {dropdown}
      <div
        role="tooltip"
        className={styles.tip}
        style={{ left: (collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH) + 8 }}
        data-testid="view-switcher-tip"
      >
        <div className={styles.tipText}>{t('shell.views.tip')}</div>
        <Button size="small" type="primary" onClick={dismissTip}>
          {t('shell.views.gotIt')}
        </Button>
      </div>
    </>
  );
}
