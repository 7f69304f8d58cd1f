import type { ThemeConfig } from 'antd';
import { PRIMARY_COLOR, type InterfaceSettings } from '@gatehouse/contract';

/**
 * The theme of the console: colours from the public settings
 * (INTERFACE.theme_info.colors), recalculated when they load and kept in local storage so the next
 * start paints in the right colours before the settings arrive.
 */
export const THEME_STORAGE_KEY = 'themeColors';
export const SIDEBAR_BACKGROUND = '#2f4050';
export const SIDEBAR_SUBMENU_BACKGROUND = '#293846';

export type ThemeVariables = Record<
  '--color-primary' | '--color-primary-light' | '--color-primary-dark' | '--menu-hover',
  string
>;

type Rgb = [number, number, number];

/** `#1ab394`, `1ab394` or `#1b9` as red, green and blue; undefined when it is not a hex colour. */
export function parseHexColor(value: string): Rgb | undefined {
  const hex = value.trim().replace(/^#/, '');
  const full = /^[0-9a-f]{3}$/i.test(hex) ? [...hex].map((c) => c + c).join('') : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return undefined;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

export function toHexColor(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** `color` with `weight` (0..1) of `other` mixed in, channel by channel. */
export function mixColors(color: string, other: string, weight: number): string {
  const a = parseHexColor(color);
  const b = parseHexColor(other);
  if (!a || !b) throw new Error(`cannot mix ${color} and ${other}`);
  return toHexColor(a.map((c, i) => c * (1 - weight) + b[i]! * weight) as Rgb);
}

/** Light = 70 % white, dark = 20 % black, menu hover = 90 % white mixed into the primary colour. */
export function themeVariables(primary: string = PRIMARY_COLOR): ThemeVariables {
  const base = parseHexColor(primary) ? toHexColor(parseHexColor(primary)!) : PRIMARY_COLOR;
  return {
    '--color-primary': base,
    '--color-primary-light': mixColors(base, '#ffffff', 0.7),
    '--color-primary-dark': mixColors(base, '#000000', 0.2),
    '--menu-hover': mixColors(base, '#ffffff', 0.9),
  };
}

export function primaryOf(iface: Pick<InterfaceSettings, 'theme_info'> | null | undefined): string {
  const value = iface?.theme_info?.colors?.['--color-primary'];
  return value && parseHexColor(value) ? value : PRIMARY_COLOR;
}

export function storedThemeVariables(): ThemeVariables | undefined {
  try {
    const raw = localStorage.getItem(THEME_STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<ThemeVariables>) : undefined;
    return parsed?.['--color-primary'] ? themeVariables(parsed['--color-primary']) : undefined;
  } catch {
    return undefined;
  }
}

/** Sets the CSS variables on the document and remembers them. */
export function applyTheme(vars: ThemeVariables, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
  localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify(vars));
}

/** Points the page's icon at INTERFACE.favicon. */
export function applyFavicon(href: string | undefined): void {
  if (!href) return;
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) link.href = href;
}

/** The Ant Design theme from the theme colours. */
export function antdTheme(vars: ThemeVariables = themeVariables()): ThemeConfig {
  const primary = vars['--color-primary'];
  return {
    token: { colorPrimary: primary, colorLink: primary, colorInfo: primary, borderRadius: 4 },
    components: {
      Layout: {
        siderBg: SIDEBAR_BACKGROUND,
        headerBg: '#ffffff',
        bodyBg: '#f3f3f4',
        headerHeight: 50,
        headerPadding: '0 16px',
      },
      Menu: {
        darkItemBg: SIDEBAR_BACKGROUND,
        darkSubMenuItemBg: SIDEBAR_SUBMENU_BACKGROUND,
        darkPopupBg: SIDEBAR_BACKGROUND,
        darkItemColor: '#a7b1c2',
        darkItemHoverColor: '#ffffff',
        darkItemHoverBg: SIDEBAR_SUBMENU_BACKGROUND,
        darkItemSelectedBg: SIDEBAR_SUBMENU_BACKGROUND,
        darkItemSelectedColor: '#ffffff',
        itemBorderRadius: 0,
        itemMarginInline: 0,
        itemMarginBlock: 0,
        itemHeight: 44,
        collapsedWidth: 54,
        subMenuItemBorderRadius: 0,
        itemHoverBg: vars['--menu-hover'],
        itemSelectedBg: vars['--menu-hover'],
      },
    },
  };
}
