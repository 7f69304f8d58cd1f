import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../../../lib/charts/Chart.tsx';
import { columnOption, lineOption, ringOption } from '../../../lib/charts/options.ts';
import { useIndex, type IndexData } from '../../../lib/dashboard/useIndex.ts';
import { CountCard, DAY_CHOICES, dashboardStyles as s, DaysSwitch, Panel } from '../../../lib/dashboard/Widgets.tsx';

/** The range chosen last, kept across visits as the JumpServer console keeps it. */
const DAYS_KEY = 'dashboardDays';
const storedDays = (): number => {
  const v = Number(localStorage.getItem(DAYS_KEY));
  return (DAY_CHOICES as readonly number[]).includes(v) ? v : 1;
};

/** The lists the summary cards lead to (the session pages are the audit view's session area). */
const LINKS = {
  loginLogs: '/audit/audits/login-logs/',
  operateLogs: '/audit/audits/operate-logs/',
  passwordChangeLogs: '/audit/audits/password-change-log',
  sessions: '/audit/sessions/sessions',
  ftpLogs: '/audit/sessions/ftp',
  jobLogs: '/audit/audits/job-execution-log',
};

const FLAGS = [
  'total_count_user_login_logs',
  'total_count_user_login_success_logs',
  'total_count_operate_logs',
  'total_count_change_password_logs',
  'total_count_online_sessions',
  'total_count_history_sessions',
  'total_count_ftp_logs',
  'total_count_commands',
  'total_count_commands_danger',
  'total_count_job_logs',
  'total_count_job_logs_running',
  'total_count_job_logs_failed',
  'session_dates_metrics',
  'dates_metrics',
];

/**
 * The audit dashboard (rbac.view_audit): summary cards linking to their lists, the login success
 * and dangerous command rings, the job cards with the session trend, and the logins per day; one
 * range switch (today, 7 or 30 days) drives every card.
 */
export function AuditDashboardPage() {
  const [days, setDays] = useState(storedDays);
  const choose = (d: number) => {
    localStorage.setItem(DAYS_KEY, String(d));
    setDays(d);
  };
  const { data } = useIndex(FLAGS, days);
  return (
    <div className={s.page} data-testid="dashboard-audit">
      <div className={s.toolbar}>
        <DaysSwitch value={days} onChange={choose} />
      </div>
      <CardSummary data={data} />
      <div className={`${s.grid} ${s.cols2}`}>
        <DataSummary data={data} />
        <RightSummary data={data} />
      </div>
      <TrendSummary data={data} />
    </div>
  );
}

function CardSummary({ data }: { data: IndexData | undefined }) {
  const { t } = useTranslation();
  return (
    <div className={`${s.grid} ${s.cols3}`}>
      <CountCard
        title={t('dashboard.loginLogs')}
        value={data?.total_count_user_login_logs}
        to={LINKS.loginLogs}
        testId="count-login-logs"
      />
      <CountCard
        title={t('dashboard.operateLogs')}
        value={data?.total_count_operate_logs}
        to={LINKS.operateLogs}
        testId="count-operate-logs"
      />
      <CountCard
        title={t('dashboard.passwordChangeLogs')}
        value={data?.total_count_change_password_logs}
        to={LINKS.passwordChangeLogs}
        testId="count-password-logs"
      />
      <CountCard
        title={t('dashboard.onlineSessions')}
        value={data?.total_count_online_sessions}
        to={LINKS.sessions}
        testId="count-online-sessions"
      />
      <CountCard
        title={t('dashboard.historySessions')}
        value={data?.total_count_history_sessions}
        to={LINKS.sessions}
        testId="count-history-sessions"
      />
      <CountCard
        title={t('dashboard.ftpLogs')}
        value={data?.total_count_ftp_logs}
        to={LINKS.ftpLogs}
        testId="count-ftp-logs"
      />
    </div>
  );
}

function DataSummary({ data }: { data: IndexData | undefined }) {
  const { t } = useTranslation();
  const logins = data?.total_count_user_login_logs ?? 0;
  const success = data?.total_count_user_login_success_logs ?? 0;
  const commands = data?.total_count_commands ?? 0;
  const danger = data?.total_count_commands_danger ?? 0;
  const loginRing = useCallback(
    (p: string) =>
      ringOption(p, [
        { name: t('dashboard.loginSuccess'), value: success },
        { name: t('dashboard.loginFailed'), value: Math.max(logins - success, 0) },
      ]),
    [t, logins, success],
  );
  const commandRing = useCallback(
    () =>
      ringOption('#ed5565', [
        { name: t('dashboard.dangerCommands'), value: danger },
        { name: t('dashboard.otherCommands'), value: Math.max(commands - danger, 0) },
      ]),
    [t, commands, danger],
  );
  return (
    <Panel title={t('dashboard.dataSummary')}>
      <div className={s.stack}>
        <div className={s.summary}>
          <div className={`${s.grid} ${s.cols2}`}>
            <CountCard title={t('dashboard.loginLogs')} value={data?.total_count_user_login_logs} />
            <CountCard title={t('dashboard.loginSuccess')} value={data?.total_count_user_login_success_logs} />
          </div>
          <Chart option={loginRing} height={150} testId="chart-login-ring" />
        </div>
        <div className={s.summary}>
          <div className={`${s.grid} ${s.cols2}`}>
            <CountCard title={t('dashboard.commands')} value={data?.total_count_commands} testId="count-commands" />
            <CountCard
              title={t('dashboard.dangerCommands')}
              value={data?.total_count_commands_danger}
              danger
              testId="count-danger-commands"
            />
          </div>
          <Chart option={commandRing} height={150} testId="chart-command-ring" />
        </div>
      </div>
    </Panel>
  );
}

function RightSummary({ data }: { data: IndexData | undefined }) {
  const { t } = useTranslation();
  const trend = useCallback(
    (p: string) =>
      lineOption(p, data?.dates_metrics_date ?? [], [
        { name: t('dashboard.sessions'), data: data?.dates_metrics_total_count_session ?? [] },
      ]),
    [t, data],
  );
  return (
    <Panel title={t('dashboard.jobsAndSessions')}>
      <div className={s.stack}>
        <div className={`${s.grid} ${s.cols3}`}>
          <CountCard title={t('dashboard.jobLogs')} value={data?.total_count_job_logs} to={LINKS.jobLogs} />
          <CountCard title={t('dashboard.jobsRunning')} value={data?.total_count_job_logs_running} />
          <CountCard title={t('dashboard.jobsFailed')} value={data?.total_count_job_logs_failed} danger />
        </div>
        <Chart option={trend} height={200} testId="chart-session-trend" />
      </div>
    </Panel>
  );
}

function TrendSummary({ data }: { data: IndexData | undefined }) {
  const { t } = useTranslation();
  const option = useCallback(
    (p: string) =>
      columnOption(
        p,
        data?.dates_metrics_date ?? [],
        t('dashboard.logins'),
        data?.dates_metrics_total_count_login ?? [],
      ),
    [t, data],
  );
  return (
    <Panel title={t('dashboard.loginTrend')}>
      <Chart option={option} height={260} testId="chart-login-trend" />
    </Panel>
  );
}
