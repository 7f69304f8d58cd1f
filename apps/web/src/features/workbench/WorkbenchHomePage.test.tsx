import '../../resource/testing/setup.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { ALL_PERMISSIONS, type PublicSettings } from '@gatehouse/contract';
import { callsTo, on, resetHttp } from '../../resource/testing/fakeHttp.ts';
import { renderRoutes } from '../../resource/testing/renderRoutes.tsx';
import { useAppStore } from '../../lib/appStore.ts';
import { WorkbenchHomePage } from './WorkbenchHomePage.tsx';

vi.mock('../../lib/http.ts', async (orig) =>
  (await import('../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);
// The user card reads the whole profile, which the harness only sketches (the browser test shows it).
vi.mock('./UserCard.tsx', () => ({ UserCard: () => null }));

const LICENSED = { XPACK_ENABLED: true, XPACK_LICENSE_IS_VALID: true } as PublicSettings;
const session = (over: Record<string, unknown>) => ({
  id: `s-${String(over.asset)}`,
  user: 'Admin(admin)',
  asset_id: `a-${String(over.asset)}`,
  account: 'root(root)',
  account_id: 'acc-1',
  protocol: 'ssh',
  type: { value: 'normal', label: 'Normal' },
  login_from: { value: 'WT', label: 'Web Terminal' },
  remote_addr: '10.0.0.9',
  is_finished: true,
  date_start: '2026/01/02 10:00:00 +0000',
  ...over,
});

function home(perms: readonly string[] = ALL_PERMISSIONS, settings: PublicSettings | null = LICENSED) {
  renderRoutes([{ path: '/workbench/home', element: <WorkbenchHomePage /> }] as RouteObject[], '/workbench/home', {
    perms,
  });
  useAppStore.setState({ publicSettings: settings });
}

let opened: string[];
beforeEach(() => {
  resetHttp();
  opened = [];
  vi.spyOn(window, 'open').mockImplementation((url) => {
    opened.push(String(url));
    return null;
  });
  on('GET', '/api/v1/audits/my-login-logs/', { count: 0, results: [] });
  on('GET', '/api/v1/perms/users/self/assets/', { count: 3, results: [] });
  on('GET', '/api/v1/terminal/my-sessions/', {
    count: 2,
    results: [
      session({ asset: 'web-01' }),
      session({ asset: 'files-01', protocol: 'sftp', type: { value: 'sftp', label: 'SFTP' } }),
    ],
  });
  on('GET', '/api/v1/tickets/tickets/', {
    count: 1,
    results: [
      {
        id: 't-1',
        title: 'Need web-01',
        type: { value: 'apply_asset', label: 'Apply for asset' },
        state: { value: 'pending', label: 'Open' },
        applicant: { id: 'u-2', name: 'Ann(ann)' },
        date_created: '2026/01/02 09:00:00 +0000',
      },
    ],
  });
});
afterEach(() => vi.restoreAllMocks());

describe('the workbench home', () => {
  it('lists my recent sessions, each reopened where it ran: the web terminal, or the file manager for SFTP', async () => {
    home();
    const card = screen.getByTestId('workbench-recent-sessions');
    await within(card).findByText('web-01');
    expect(callsTo('GET', '/api/v1/terminal/my-sessions/')[0]!.query.get('limit')).toBe('5');
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('root(root)ssh10.0.0.9'),
      expect.stringContaining('files-01'),
    ]);
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Connect' }));
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Open files' }));
    expect(opened).toEqual(['/luna/?login_to=a-web-01&login_account=acc-1', '/koko/elfinder/sftp/?asset=a-files-01']);
  });

  it('offers no reopening without the web terminal or file manager permission', async () => {
    home(['perms.view_myassets', 'tickets.view_ticket']);
    const card = screen.getByTestId('workbench-recent-sessions');
    await within(card).findByText('web-01');
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('lists the tickets waiting for my decision, linking to their pages and to the whole list', async () => {
    home();
    const card = await screen.findByTestId('workbench-assigned-tickets');
    const link = await within(card).findByRole('link', { name: 'Need web-01' });
    expect(link.getAttribute('href')).toBe('/tickets/tickets/request-host-perm/t-1');
    expect(within(card).getByRole('link', { name: 'All' }).getAttribute('href')).toBe('/tickets/assigned-tickets');
    expect(card.textContent).toContain('Ann(ann)');
    const q = callsTo('GET', '/api/v1/tickets/tickets/')[0]!.query;
    expect([q.get('assignees__id'), q.get('state'), q.get('limit')]).toEqual(['me', 'pending', '5']);
  });

  it('has no tickets card without a valid licence', async () => {
    home(ALL_PERMISSIONS, null);
    await within(screen.getByTestId('workbench-recent-sessions')).findByText('web-01');
    expect(screen.queryByTestId('workbench-assigned-tickets')).toBeNull();
    expect(callsTo('GET', '/api/v1/tickets/tickets/')).toEqual([]);
  });

  it('has no tickets card without tickets.view_ticket', async () => {
    home(['perms.view_myassets', 'rbac.view_webterminal']);
    await within(screen.getByTestId('workbench-recent-sessions')).findByText('web-01');
    expect(screen.queryByTestId('workbench-assigned-tickets')).toBeNull();
    expect(callsTo('GET', '/api/v1/tickets/tickets/')).toEqual([]);
  });
});
