import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ExportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PreparedRoute } from '../lib/routeTypes.ts';
import { buildMenu, initialOpenKeys, nextOpenKeys, selectedMenuKey, type MenuEntry } from './menu.ts';
import { useMatchedMeta, useVisibility } from './useShellContext.ts';
import styles from './SidebarMenu.module.css';

/** Where a collapsed sidebar's flyout shows: right of the hovered entry. */
interface Flyout {
  key: string;
  top: number;
  left: number;
}

/** An external entry opens in a new tab without access to this page; the router never sees it. */
function openExternal(url: string) {
  window.open(url, '_blank', 'noopener');
}

/** Up/Down move between the menu's visible entries, Home/End to the first and last (as antd's Menu). */
function moveFocus(e: KeyboardEvent<HTMLElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(e.key)) return;
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter((el) => el.offsetParent);
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next =
    e.key === 'Home'
      ? 0
      : e.key === 'End'
        ? items.length - 1
        : (at + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
  items[next]?.focus();
  e.preventDefault();
}

/**
 * The view's menu: one submenu open at a time, the current page lit up. Plain React and CSS in the
 * look of antd's dark inline Menu (see SidebarMenu.module.css): antd's Menu, with its trigger,
 * tooltip and overflow code, is ~25 KB gzip the console's first load does not need. Collapsed, an
 * entry shows its title, a group its entries, in a flyout on hover or focus.
 */
export function SidebarMenu({ view, collapsed }: { view: PreparedRoute; collapsed: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const ctx = useVisibility();
  const matched = useMatchedMeta();
  const entries = useMemo(() => buildMenu(view, ctx), [view, ctx]);
  const activeMenu = matched.at(-1)?.handle.activeMenu ?? matched.at(-1)?.meta.activeMenu;
  const selected = selectedMenuKey(entries, pathname, activeMenu);
  const [openKeys, setOpenKeys] = useState<string[]>(() => initialOpenKeys(entries, selected));
  const [flyout, setFlyout] = useState<Flyout | null>(null);

  // A page of a closed group opens that group.
  useEffect(() => {
    const holder = entries.find((e) => e.children?.some((c) => c.key === selected));
    if (holder) setOpenKeys((keys) => (keys.includes(holder.key) ? keys : [holder.key]));
  }, [entries, selected]);
  useEffect(() => setFlyout(null), [collapsed, pathname]);

  const label = (e: MenuEntry) => t(e.title, { defaultValue: e.fallbackTitle ?? e.title });
  const toggle = (key: string) =>
    setOpenKeys((keys) => nextOpenKeys(keys, keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key]));
  const showFlyout = (key: string, el: HTMLElement) => {
    if (!collapsed) return;
    const r = el.getBoundingClientRect();
    setFlyout({ key, top: r.top, left: r.right });
  };
  const hover = (key: string) => ({
    onMouseEnter: (ev: React.MouseEvent<HTMLElement>) => showFlyout(key, ev.currentTarget),
    onMouseLeave: () => setFlyout((f) => (f?.key === key ? null : f)),
    onFocus: (ev: React.FocusEvent<HTMLElement>) => {
      if (ev.target === ev.currentTarget.firstElementChild) showFlyout(key, ev.currentTarget);
    },
  });

  /** An entry; `indent` is its left padding, none for an icon alone (collapsed top level). */
  const leaf = (e: MenuEntry, indent?: number) => {
    const style = indent === undefined ? undefined : { paddingLeft: indent };
    const content = (
      <>
        {e.icon && <span className={styles.icon}>{e.icon}</span>}
        {indent !== undefined && <span className={styles.title}>{label(e)}</span>}
        {indent !== undefined && e.externalUrl && (
          <ExportOutlined className={styles.external} aria-label={t('shell.menu.opensInNewTab')} />
        )}
      </>
    );
    return (
      <li key={e.key} role="none" className={styles.li}>
        {e.externalUrl ? (
          <a
            href={e.externalUrl}
            target="_blank"
            rel="noopener noreferrer"
            role="menuitem"
            className={styles.item}
            style={style}
            title={t('shell.menu.opensInNewTab')}
            aria-label={indent === undefined ? `${label(e)} (${t('shell.menu.opensInNewTab')})` : undefined}
            onClick={(ev) => {
              ev.preventDefault();
              openExternal(e.externalUrl!);
            }}
          >
            {content}
          </a>
        ) : (
          <Link
            to={e.path}
            role="menuitem"
            className={`${styles.item} ${e.key === selected ? styles.selected : ''}`}
            style={style}
            aria-current={e.key === selected ? 'page' : undefined}
            aria-label={indent === undefined ? label(e) : undefined}
          >
            {content}
          </Link>
        )}
      </li>
    );
  };

  const group = (e: MenuEntry) => {
    const open = !collapsed && openKeys.includes(e.key);
    const holdsSelected = e.children!.some((c) => c.key === selected);
    return (
      <li key={e.key} role="none" className={styles.li} {...hover(e.key)}>
        <div
          role="menuitem"
          tabIndex={0}
          aria-haspopup="true"
          aria-expanded={collapsed ? flyout?.key === e.key : open}
          aria-label={collapsed ? label(e) : undefined}
          className={`${styles.item} ${styles.groupTitle} ${holdsSelected ? styles.groupSelected : ''}`}
          style={collapsed ? undefined : { paddingLeft: 24 }}
          onClick={() => !collapsed && toggle(e.key)}
          onKeyDown={(ev) => {
            if (collapsed) return;
            if (
              ev.key === 'Enter' ||
              ev.key === ' ' ||
              (ev.key === 'ArrowRight' && !open) ||
              (ev.key === 'ArrowLeft' && open)
            ) {
              ev.preventDefault();
              toggle(e.key);
            }
          }}
        >
          {e.icon && <span className={styles.icon}>{e.icon}</span>}
          {!collapsed && <span className={styles.title}>{label(e)}</span>}
          {!collapsed && <i className={`${styles.arrow} ${open ? styles.arrowOpen : ''}`} />}
        </div>
        {open && (
          <ul role="menu" className={styles.sub}>
            {e.children!.map((c) => leaf(c, 48))}
          </ul>
        )}
        {collapsed && flyout?.key === e.key && (
          <ul
            role="menu"
            className={styles.flyout}
            style={{ top: flyout.top, left: flyout.left }}
            data-testid="menu-flyout"
          >
            {e.children!.map((c) => leaf(c, 16))}
          </ul>
        )}
      </li>
    );
  };

  return (
    <ul
      role="menu"
      className={`${styles.menu} ${collapsed ? styles.collapsed : ''}`}
      data-testid="sidebar-menu"
      onKeyDown={moveFocus}
    >
      {entries.map((e) =>
        e.children ? (
          group(e)
        ) : (
          <li key={e.key} role="none" className={styles.li} {...hover(e.key)}>
            {leaf(e, collapsed ? undefined : 24).props.children}
            {collapsed && flyout?.key === e.key && (
              <div role="tooltip" className={styles.tooltip} style={{ top: flyout.top + 6, left: flyout.left }}>
                {label(e)}
              </div>
            )}
          </li>
        ),
      )}
    </ul>
  );
}
