import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../../../lib/charts/Chart.tsx';
import { lineOption, proportionOption, ringOption } from '../../../lib/charts/options.ts';
import { useAppStore } from '../../../lib/appStore.ts';
import { useIndex } from '../../../lib/dashboard/useIndex.ts';
import { CountCard, dashboardStyles as s, DaysSwitch, Panel, RankTable } from '../../../lib/dashboard/Widgets.tsx';

/** Where the online-session counters lead (the audit view's session list). */
const ONLINE_SESSIONS = '/audit/sessions/sessions';

const SUMMARY_FLAGS = [
  'total_count_users',
  'total_count_users_this_week',
  'total_count_login_users',
  'total_count_assets',
  'total_count_assets_this_week',
  'total_count_today_active_assets',
];

/**
 * The console dashboard (rbac.view_console, `features/console/routes.tsx`): real-time counters,
 * the week's user and asset activity, the data summary with rings, the asset types' proportion and
 * the top 10 users and assets by sessions over 1, 7 or 30 days. Every card is one `GET
 * /api/v1/index/` with its flags; the charts load their drawing code after the page has drawn.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <div className={s.page} data-testid="dashboard-console">
      <Welcome />
      <RealTime />
      <div className={`${s.grid} ${s.wide}`}>
        <Activity />
        <DataSummary />
      </div>
      <AssetTypes />
      <div className={`${s.grid} ${s.cols2}`}>
        <Top10 kind="users" title={t('dashboard.topUsers')} />
        <Top10 kind="assets" title={t('dashboard.topAssets')} />
      </div>
    </div>
  );
}

/** Who is signed in, in which org, with which roles (the role names are worded by the server). */
function Welcome() {
  const { t } = useTranslation();
  const profile = useAppStore((st) => st.profile);
  const org = useAppStore((st) => st.currentOrg);
  if (!profile) return null;
  const roles = [...(profile.system_roles ?? []), ...(profile.org_roles ?? [])].map((r) => r.display_name).join(' · ');
  return (
    <div className={s.welcome} data-testid="dashboard-welcome">
      <strong>{t('common.welcome', { name: profile.name })}</strong>
      <span>
        {t('common.currentOrg')}: {org?.name}
      </span>
      <span>
        {t('common.roles')}: {roles || t('common.none')}
      </span>
    </div>
  );
}

function RealTime() {
  const { t } = useTranslation();
  const { data } = useIndex(['total_count']);
  return (
    <Panel title={t('dashboard.realTime')}>
      <div className={`${s.grid} ${s.cols3}`}>
        <CountCard
          title={t('dashboard.onlineSessions')}
          value={data?.total_count_online_sessions}
          to={ONLINE_SESSIONS}
          testId="count-online-sessions"
        />
        <CountCard
          title={t('dashboard.onlineUsers')}
          value={data?.total_count_online_users}
          to={ONLINE_SESSIONS}
          testId="count-online-users"
        />
        <CountCard
          title={t('dashboard.failedSessions')}
          value={data?.total_count_today_failed_sessions}
          danger
          testId="count-failed-sessions"
        />
      </div>
    </Panel>
  );
}

function Activity() {
  const { t } = useTranslation();
  const { data } = useIndex(['dates_metrics'], 7);
  const option = useCallback(
    (primary: string) =>
      lineOption(primary, data?.dates_metrics_date ?? [], [
        { name: t('dashboard.activeUsers'), data: data?.dates_metrics_total_count_active_users ?? [] },
        { name: t('dashboard.activeAssets'), data: data?.dates_metrics_total_count_active_assets ?? [] },
      ]),
    [data, t],
  );
  return (
    <Panel title={t('dashboard.activity')}>
      <Chart option={option} height={300} testId="chart-activity" />
    </Panel>
  );
}

function DataSummary() {
  const { t } = useTranslation();
  const { data } = useIndex(SUMMARY_FLAGS);
  const users = data?.total_count_users ?? 0;
  const assets = data?.total_count_assets ?? 0;
  const activeUsers = data?.total_count_login_users ?? 0;
  const activeAssets = data?.total_count_today_active_assets ?? 0;
  const userRing = useCallback(
    (p: string) =>
      ringOption(p, [
        { name: t('dashboard.activeUsers'), value: activeUsers },
        { name: t('dashboard.inactive'), value: Math.max(users - activeUsers, 0) },
      ]),
    [t, users, activeUsers],
  );
  const assetRing = useCallback(
    (p: string) =>
      ringOption(p, [
        { name: t('dashboard.activeAssets'), value: activeAssets },
        { name: t('dashboard.inactive'), value: Math.max(assets - activeAssets, 0) },
      ]),
    [t, assets, activeAssets],
  );
  return (
    <Panel title={t('dashboard.dataSummary')}>
      <div className={s.stack}>
        <div className={s.summary}>
          <div className={`${s.grid} ${s.cols3}`}>
            <CountCard title={t('dashboard.users')} value={data?.total_count_users} testId="count-users" />
            <CountCard title={t('dashboard.weekAdded')} value={data?.total_count_users_this_week} />
            <CountCard title={t('dashboard.activeToday')} value={data?.total_count_login_users} />
          </div>
          <Chart option={userRing} height={150} testId="chart-users-ring" />
        </div>
        <div className={s.summary}>
          <div className={`${s.grid} ${s.cols3}`}>
            <CountCard title={t('dashboard.assets')} value={data?.total_count_assets} testId="count-assets" />
            <CountCard title={t('dashboard.weekAdded')} value={data?.total_count_assets_this_week} />
            <CountCard title={t('dashboard.activeToday')} value={data?.total_count_today_active_assets} />
          </div>
          <Chart option={assetRing} height={150} testId="chart-assets-ring" />
        </div>
      </div>
    </Panel>
  );
}

function AssetTypes() {
  const { t } = useTranslation();
  const { data } = useIndex(['total_count_type_to_assets_amount']);
  const items = data?.total_count_type_to_assets_amount;
  const option = useCallback((p: string) => proportionOption(p, items ?? []), [items]);
  return (
    <Panel title={t('dashboard.assetTypes')}>
      {items?.length ? (
        <Chart option={option} height={90} testId="chart-asset-types" />
      ) : (
        <div className={s.empty}>{t('dashboard.noData')}</div>
      )}
    </Panel>
  );
}

function Top10({ kind, title }: { kind: 'users' | 'assets'; title: string }) {
  const { t } = useTranslation();
  const [days, setDays] = useState(7);
  const flag = kind === 'users' ? 'dates_login_times_top10_users' : 'dates_login_times_top10_assets';
  const { data } = useIndex([flag], days);
  const rows =
    kind === 'users'
      ? (data?.dates_login_times_top10_users ?? []).map((r) => ({ name: r.user, total: r.total }))
      : (data?.dates_login_times_top10_assets ?? []).map((r) => ({ name: r.asset, total: r.total }));
  return (
    <Panel title={title} extra={<DaysSwitch value={days} onChange={setDays} />} testId={`top10-${kind}`}>
      <RankTable
        rows={rows}
        nameTitle={kind === 'users' ? t('dashboard.user') : t('dashboard.asset')}
        totalTitle={t('dashboard.sessions')}
        testId={`rank-${kind}`}
      />
    </Panel>
  );
}
