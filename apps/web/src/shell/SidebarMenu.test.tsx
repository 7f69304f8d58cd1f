import '../resource/testing/setup.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router';
import { SidebarMenu } from './SidebarMenu.tsx';
import { useAppStore } from '../lib/appStore.ts';
import { ROUTER_VIEWS, viewRoute, hasRoute } from '../app/viewRoutes.ts';

const workbench = viewRoute('workbench')!;

/** The workbench menu for a user holding `perms`, on `/workbench/home`. */
function mount(perms: string[], collapsed = false) {
  useAppStore.setState({ perms: new Set(perms) });
  const router = createMemoryRouter(
    [{ path: '/', children: [{ path: '*', element: <SidebarMenu view={workbench} collapsed={collapsed} /> }] }],
    { initialEntries: ['/workbench/home'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const items = () => within(screen.getByTestId('sidebar-menu')).getAllByRole('menuitem');

afterEach(() => {
  vi.restoreAllMocks();
  useAppStore.setState({ perms: new Set() });
});

describe('external entries of the sidebar menu', () => {
  it('shows Web terminal and File manager after My assets, each only with its permission', () => {
    mount(['perms.view_myassets', 'rbac.view_webterminal', 'rbac.view_filemanager']);
    expect(items().map((el) => el.textContent)).toEqual(['Home', 'My assets', 'Web terminal', 'File manager']);
    cleanupAndMount(['rbac.view_filemanager']);
    expect(items().map((el) => el.textContent)).toEqual(['Home', 'File manager']);
    cleanupAndMount([]);
    expect(items().map((el) => el.textContent)).toEqual(['Home']);
  });

  it('opens the page in a new tab and leaves the console where it is', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const router = mount(['rbac.view_webterminal', 'rbac.view_filemanager']);
    const terminal = screen.getByRole('menuitem', { name: /Web terminal/ });
    expect(terminal).toHaveProperty('target', '_blank');
    expect(terminal.getAttribute('href')).toBe('/luna/');
    expect(terminal.getAttribute('title')).toBe('Opens in a new tab');
    await userEvent.click(terminal);
    expect(open).toHaveBeenCalledWith('/luna/', '_blank', 'noopener');
    expect(router.state.location.pathname).toBe('/workbench/home');
    // Keyboard: Enter on the focused entry opens it too (jsdom has no layout, so the arrow keys'
    // move between visible entries is left to the browser).
    screen.getByRole('menuitem', { name: /File manager/ }).focus();
    await userEvent.keyboard('{Enter}');
    expect(open).toHaveBeenLastCalledWith('/koko/elfinder/sftp/', '_blank', 'noopener');
    expect(router.state.location.pathname).toBe('/workbench/home');
    // Never the selected entry, even on a path under its own name.
    expect(terminal.getAttribute('aria-current')).toBeNull();
  });

  it('collapsed, the entry is an icon named with its title and the new-tab note', () => {
    mount(['rbac.view_webterminal'], true);
    const terminal = screen.getByRole('menuitem', { name: 'Web terminal (Opens in a new tab)' });
    expect(terminal.textContent).toBe('');
  });

  it('is not a page of the router: its path is not found, so no guard, tag or breadcrumb sees it', () => {
    expect(hasRoute('/workbench/web-terminal')).toBe(false);
    expect(hasRoute('/workbench/assets')).toBe(true);
    const matched = matchRoutes([{ path: '/', children: ROUTER_VIEWS }] as never, '/workbench/file-manager');
    expect(matched?.some((m) => m.route.path === 'file-manager') ?? false).toBe(false);
  });
});

function cleanupAndMount(perms: string[]) {
  document.body.innerHTML = '';
  mount(perms);
}
