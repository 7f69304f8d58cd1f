import { beforeEach, describe, expect, it } from 'vitest';
import { getCookie } from '../lib/cookies.ts';
import { contentMargin, deviceOfWidth, sidebarOpenFromCookie, useShellStore } from './shellStore.ts';

beforeEach(() => {
  document.cookie = 'sidebarStatus=; path=/; max-age=0';
  useShellStore.setState({ device: 'desktop', sidebarOpened: true });
});

describe('the sidebar state', () => {
  it('is open unless the sidebarStatus cookie says 0', () => {
    expect(sidebarOpenFromCookie(undefined)).toBe(true);
    expect(sidebarOpenFromCookie('1')).toBe(true);
    expect(sidebarOpenFromCookie('0')).toBe(false);
  });

  it('keeps a desktop toggle in the sidebarStatus cookie', () => {
    useShellStore.getState().toggleSidebar();
    expect(useShellStore.getState().sidebarOpened).toBe(false);
    expect(getCookie('sidebarStatus')).toBe('0');
    useShellStore.getState().toggleSidebar();
    expect(getCookie('sidebarStatus')).toBe('1');
  });

  it('closes below 992 px without touching the cookie, and comes back as the cookie says', () => {
    expect(deviceOfWidth(991)).toBe('mobile');
    expect(deviceOfWidth(992)).toBe('desktop');
    useShellStore.getState().setDevice('mobile');
    expect(useShellStore.getState().sidebarOpened).toBe(false);
    useShellStore.getState().toggleSidebar();
    expect(getCookie('sidebarStatus')).toBeUndefined();
    useShellStore.getState().setDevice('desktop');
    expect(useShellStore.getState().sidebarOpened).toBe(true);
  });

  it('sets the content and footer margin to 200 px open, 54 px collapsed, 0 on mobile', () => {
    expect(contentMargin('desktop', true)).toBe(200);
    expect(contentMargin('desktop', false)).toBe(54);
    expect(contentMargin('mobile', true)).toBe(0);
  });
});

describe('the unread message count', () => {
  it('starts at 0 and never goes below it', () => {
    expect(useShellStore.getState().unreadMessages).toBe(0);
    useShellStore.getState().setUnreadMessages(-3);
    expect(useShellStore.getState().unreadMessages).toBe(0);
  });
});
