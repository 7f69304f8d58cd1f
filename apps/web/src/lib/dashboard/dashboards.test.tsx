import '../../resource/testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import type { FakeRequest } from '../../resource/testing/fakeHttp.ts';
import { calls, on, resetHttp } from '../../resource/testing/fakeHttp.ts';
import { renderRoutes } from '../../resource/testing/renderRoutes.tsx';
import { DashboardPage } from '../../features/console/dashboard/DashboardPage.tsx';
import { AuditDashboardPage } from '../../features/audit/dashboard/AuditDashboardPage.tsx';
import type { ChartOption } from '../charts/options.ts';

vi.mock('../http.ts', async (orig) =>
  (await import('../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);
// jsdom has no canvas: the chart box shows the series its option would draw (the browser test draws them):
// name, data, the text in a ring's middle and whether it answers the mouse.
type Series = { name?: string; data: unknown[]; label?: { formatter?: () => string }; silent?: boolean };
vi.mock('../charts/Chart.tsx', () => ({
  Chart: ({ option, testId }: { option: (primary: string) => ChartOption; testId?: string }) => {
    const o = option('#1ab394') as { series: Series[]; xAxis?: { data?: string[] } };
    const series = o.series.map((s) => ({
      name: s.name,
      data: s.data,
      label: s.label?.formatter?.(),
      silent: s.silent,
    }));
    return <pre data-testid={testId}>{JSON.stringify({ x: o.xAxis?.data, series })}</pre>;
  },
}));

/** The server's answer for the flags asked, from one table of values (as `GET /api/v1/index/` builds it). */
const VALUES: Record<string, Record<string, unknown>> = {
  total_count: {
    total_count_online_sessions: 3,
    total_count_online_users: 2,
    total_count_today_failed_sessions: 1,
  },
  dates_metrics: {
    dates_metrics_date: ['11-18', '11-19'],
    dates_metrics_total_count_active_users: [4, 5],
    dates_metrics_total_count_active_assets: [6, 7],
    dates_metrics_total_count_login: [8, 9],
  },
  session_dates_metrics: { dates_metrics_date: ['11-18', '11-19'], dates_metrics_total_count_session: [10, 11] },
  total_count_users: { total_count_users: 40 },
  total_count_login_users: { total_count_login_users: 10 },
  total_count_assets: { total_count_assets: 20 },
  total_count_today_active_assets: { total_count_today_active_assets: 5 },
  total_count_type_to_assets_amount: {
    total_count_type_to_assets_amount: [
      { type: 'linux', label: 'Linux', total: 3 },
      { type: 'windows', label: 'Windows', total: 1 },
    ],
  },
  total_count_user_login_logs: { total_count_user_login_logs: 12 },
  total_count_user_login_success_logs: { total_count_user_login_success_logs: 9 },
  total_count_commands: { total_count_commands: 100 },
  total_count_commands_danger: { total_count_commands_danger: 25 },
  total_count_operate_logs: { total_count_operate_logs: 7 },
};

function answer(req: FakeRequest) {
  const out: Record<string, unknown> = {};
  for (const [flag, v] of req.query) if (v === '1') Object.assign(out, VALUES[flag] ?? {});
  const top = Number(req.query.get('days') ?? 1);
  if (req.query.get('dates_login_times_top10_users'))
    out.dates_login_times_top10_users = [{ user: `Ann(ann) ${top}d`, total: 2 * top }];
  if (req.query.get('dates_login_times_top10_assets'))
    out.dates_login_times_top10_assets = [{ asset: 'web1', total: top }];
  return out;
}

const chart = async (id: string) => JSON.parse((await screen.findByTestId(id)).textContent!);
const open = (element: React.ReactNode, at: string) => renderRoutes([{ path: at, element }] as RouteObject[], at);

beforeEach(() => {
  resetHttp();
  localStorage.clear();
  on('GET', '/api/v1/index/', answer);
});

describe('console dashboard', () => {
  it('maps the index answer onto counters, charts and rankings, and switches the ranking days', async () => {
    open(<DashboardPage />, '/console/dashboard');
    await waitFor(() => expect(screen.getByTestId('count-online-sessions').textContent).toBe('3'));
    expect(screen.getByTestId('count-online-users').textContent).toContain('2');
    expect(screen.getByTestId('count-failed-sessions').textContent).toContain('1');
    await waitFor(() => expect(screen.getByTestId('count-users').textContent).toContain('40'));
    expect(await chart('chart-activity')).toEqual({
      x: ['11-18', '11-19'],
      series: [
        { name: 'Active users', data: [4, 5] },
        { name: 'Active assets', data: [6, 7] },
      ],
    });
    expect((await chart('chart-users-ring')).series[0].data).toEqual([
      { name: 'Active users', value: 10 },
      { name: 'Inactive', value: 30 },
    ]);
    await waitFor(async () =>
      expect((await chart('chart-asset-types')).series).toEqual([
        { name: 'Linux', data: [75] },
        { name: 'Windows', data: [25] },
      ]),
    );
    // The activity asks for 7 days; the rankings start at 7 and follow their switch.
    expect(calls.some((c) => c.query.get('dates_metrics') === '1' && c.query.get('days') === '7')).toBe(true);
    const users = await screen.findByTestId('top10-users');
    await waitFor(() => expect(within(users).getByTestId('rank-users').textContent).toContain('Ann(ann) 7d'));
    await userEvent.click(within(users).getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(within(users).getByTestId('rank-users').textContent).toContain('Ann(ann) 30d60'));
    expect(within(screen.getByTestId('top10-assets')).getByTestId('rank-assets').textContent).toContain('web17');
  });
});

describe('audit dashboard', () => {
  it('maps the counters, rings and trends, with one range switch kept in localStorage', async () => {
    open(<AuditDashboardPage />, '/audit/dashboard');
    await waitFor(() => expect(screen.getByTestId('count-login-logs').textContent).toBe('12'));
    expect(screen.getByTestId('count-operate-logs').textContent).toContain('7');
    expect(screen.getByRole('link', { name: /Operate logs/ }).getAttribute('href')).toBe('/audit/audits/operate-logs/');
    expect((await chart('chart-login-ring')).series[0]).toEqual({
      data: [
        { name: 'Successful logins', value: 9 },
        { name: 'Failed logins', value: 3 },
      ],
      label: '75%',
      silent: false,
    });
    expect((await chart('chart-command-ring')).series[0].data).toEqual([
      { name: 'Dangerous commands', value: 25 },
      { name: 'Other commands', value: 75 },
    ]);
    expect(await chart('chart-session-trend')).toEqual({
      x: ['11-18', '11-19'],
      series: [{ name: 'Sessions', data: [10, 11] }],
    });
    expect((await chart('chart-login-trend')).series).toEqual([{ name: 'Logins', data: [8, 9] }]);
    expect(calls.at(-1)!.query.get('days')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(calls.at(-1)!.query.get('days')).toBe('7'));
    expect(localStorage.getItem('dashboardDays')).toBe('7');
  });
});

describe('rings with nothing to count', () => {
  // 0 of 0: ECharts splits a ring of zeros evenly, so the ring used to be half filled and say 0 %.
  const EMPTY_RING = { data: [{ name: '', value: 0, itemStyle: { color: '#e8e8e8' } }], label: '0%', silent: true };
  // Every counter and per-day figure 0, the days kept, no rows in the rankings and types.
  const zero = (v: unknown): unknown =>
    typeof v === 'number' ? 0 : Array.isArray(v) ? v.filter((x) => typeof x !== 'object').map(zero) : v;
  const zeros = (req: FakeRequest) => Object.fromEntries(Object.entries(answer(req)).map(([k, v]) => [k, zero(v)]));

  it('draw an empty track saying 0% on the audit dashboard, with no slice to hover', async () => {
    on('GET', '/api/v1/index/', zeros);
    open(<AuditDashboardPage />, '/audit/dashboard');
    await waitFor(() => expect(screen.getByTestId('count-login-logs').textContent).toBe('0'));
    await waitFor(async () => expect((await chart('chart-login-ring')).series[0]).toEqual(EMPTY_RING));
    expect((await chart('chart-command-ring')).series[0]).toEqual(EMPTY_RING);
  });

  it('draw an empty track on the console dashboard, and a full ring at 100 %', async () => {
    on('GET', '/api/v1/index/', (req: FakeRequest) => ({
      ...zeros(req),
      ...(req.query.get('total_count_assets') === '1'
        ? { total_count_assets: 4, total_count_today_active_assets: 4 }
        : {}),
    }));
    open(<DashboardPage />, '/console/dashboard');
    await waitFor(() => expect(screen.getByTestId('count-users').textContent).toContain('0'));
    await waitFor(async () => expect((await chart('chart-users-ring')).series[0]).toEqual(EMPTY_RING));
    await waitFor(async () =>
      expect((await chart('chart-assets-ring')).series[0]).toEqual({
        data: [
          { name: 'Active assets', value: 4 },
          { name: 'Inactive', value: 0 },
        ],
        label: '100%',
        silent: false,
      }),
    );
  });
});
