import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PreparedRoute } from '../lib/routeTypes.ts';
import { buildMenu, initialOpenKeys, nextOpenKeys, selectedMenuKey, type MenuEntry } from './menu.ts';
import { useMatchedMeta, useVisibility } from './useShellContext.ts';

/** The view's menu: one submenu open at a time, the current page lit up. */
export function SidebarMenu({ view, collapsed }: { view: PreparedRoute; collapsed: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const ctx = useVisibility();
  const matched = useMatchedMeta();
  const entries = useMemo(() => buildMenu(view, ctx), [view, ctx]);
  const activeMenu = matched.at(-1)?.handle.activeMenu ?? matched.at(-1)?.meta.activeMenu;
  const selected = selectedMenuKey(entries, pathname, activeMenu);
  const [openKeys, setOpenKeys] = useState<string[]>(() => initialOpenKeys(entries, selected));

  // A page of a closed group opens that group.
  useEffect(() => {
    const holder = entries.find((e) => e.children?.some((c) => c.key === selected));
    if (holder) setOpenKeys((keys) => (keys.includes(holder.key) ? keys : [holder.key]));
  }, [entries, selected]);

  const label = (e: MenuEntry) => t(e.title, { defaultValue: e.fallbackTitle ?? e.title });
  const toItem = (e: MenuEntry): NonNullable<MenuProps['items']>[number] =>
    e.children
      ? { key: e.key, icon: e.icon, label: label(e), children: e.children.map(toItem) }
      : { key: e.key, icon: e.icon, label: <Link to={e.path}>{label(e)}</Link> };

  return (
    <Menu
      theme="dark"
      mode="inline"
      inlineCollapsed={collapsed}
      items={entries.map(toItem)}
      selectedKeys={selected ? [selected] : []}
      {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(nextOpenKeys(openKeys, keys)) })}
      data-testid="sidebar-menu"
    />
  );
}
