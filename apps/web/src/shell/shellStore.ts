import { create } from 'zustand';
import { MOBILE_BREAKPOINT_PX } from '@gatehouse/contract';
import { getCookie, setCookie } from '../lib/cookies.ts';
import type { VisitedTag } from './tags.ts';

/**
 * What the shell remembers while the console runs: the sidebar
 * (cookie sidebarStatus 1/0, open by default; closed on narrow screens), the device, the unread
 * site-message count (set by the site-message feature), and the visited tags.
 */
export const SIDEBAR_COOKIE = 'sidebarStatus';
export const SIDEBAR_WIDTH = 200;
export const SIDEBAR_COLLAPSED_WIDTH = 54;

export type Device = 'desktop' | 'mobile';

export const deviceOfWidth = (width: number): Device => (width < MOBILE_BREAKPOINT_PX ? 'mobile' : 'desktop');

/** `0` means closed; anything else (or no cookie) open. */
export const sidebarOpenFromCookie = (value: string | undefined): boolean => value !== '0';

/** The footer (and content) start where the sidebar ends: 200 px open, 54 px collapsed, 0 on mobile. */
export function contentMargin(device: Device, opened: boolean): number {
  if (device === 'mobile') return 0;
  return opened ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH;
}

export interface ShellState {
  sidebarOpened: boolean;
  device: Device;
  unreadMessages: number;
  messagesOpen: boolean;
  tags: VisitedTag[];
  /** The last view shown, for pages outside the views (404, redirect). */
  lastView: string | undefined;
  toggleSidebar(): void;
  closeSidebar(): void;
  setDevice(device: Device): void;
  setUnreadMessages(count: number): void;
  setMessagesOpen(open: boolean): void;
  setTags(update: (tags: VisitedTag[]) => VisitedTag[]): void;
  setLastView(view: string): void;
}

const initialDevice = (): Device => (typeof window === 'undefined' ? 'desktop' : deviceOfWidth(window.innerWidth));

export const useShellStore = create<ShellState>((set, get) => ({
  device: initialDevice(),
  sidebarOpened: initialDevice() === 'desktop' && sidebarOpenFromCookie(getCookie(SIDEBAR_COOKIE)),
  unreadMessages: 0,
  messagesOpen: false,
  tags: [],
  lastView: undefined,
  toggleSidebar: () => {
    const opened = !get().sidebarOpened;
    // On a narrow screen the sidebar is an overlay: opening it there is not a preference to keep.
    if (get().device === 'desktop') setCookie(SIDEBAR_COOKIE, opened ? '1' : '0', { maxAge: 365 * 86400 });
    set({ sidebarOpened: opened });
  },
  closeSidebar: () => set({ sidebarOpened: false }),
  setDevice: (device) => {
    if (device === get().device) return;
    set({ device, sidebarOpened: device === 'desktop' && sidebarOpenFromCookie(getCookie(SIDEBAR_COOKIE)) });
  },
  setUnreadMessages: (count) => set({ unreadMessages: Math.max(0, count) }),
  setMessagesOpen: (messagesOpen) => set({ messagesOpen }),
  setTags: (update) => set({ tags: update(get().tags) }),
  setLastView: (lastView) => {
    if (get().lastView !== lastView) set({ lastView });
  },
}));
