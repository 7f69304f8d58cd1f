import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { first, type Query } from '../../resource/query.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type dashboardMessages from '../../platform/i18n/locales/en/dashboard.json';
import { lastDays, weekStart, type DayRange } from './dayRanges.ts';
import { Metrics } from './metrics.ts';
import { shape } from '../../resource/describe.ts';
import { queryInt } from '../../http/queryString.ts';

const M = catalogue<typeof dashboardMessages>('dashboard');

/** The counters `total_count=1` (and `all=1`) turn on together. */
const COUNTS = [
  'total_count_users',
  'total_count_assets',
  'total_count_users_this_week',
  'total_count_assets_this_week',
  'total_count_login_users',
  'total_count_today_active_assets',
  'total_count_online_users',
  'total_count_online_sessions',
  'total_count_today_failed_sessions',
  'total_count_user_login_logs',
  'total_count_user_login_success_logs',
  'total_count_operate_logs',
  'total_count_change_password_logs',
  'total_count_commands',
  'total_count_commands_danger',
  'total_count_history_sessions',
  'total_count_ftp_logs',
  'total_count_job_logs',
  'total_count_job_logs_running',
  'total_count_job_logs_failed',
  'total_count_type_to_assets_amount',
] as const;
const OTHERS = [
  'session_dates_metrics',
  'dates_metrics',
  'dates_login_times_top10_assets',
  'dates_login_times_top10_users',
  'dates_login_record_top10_sessions',
] as const;
type Flag = (typeof COUNTS)[number] | (typeof OTHERS)[number];

/** The longest range a dashboard asks for is 30 days; a year bounds the per-day queries. */
const MAX_DAYS = 366;

function flagsOf(query: Query): Set<Flag> {
  // As the original: a flag given any value but blanks is on (`total_count_users=1 ` included).
  const on = (k: string) => Boolean(first(query, k)?.trim());
  if (on('all')) return new Set([...COUNTS, ...OTHERS]);
  const out = new Set<Flag>();
  if (on('total_count')) COUNTS.forEach((c) => out.add(c));
  for (const k of [...COUNTS, ...OTHERS]) if (on(k)) out.add(k);
  return out;
}

function daysOf(req: FastifyRequest): number {
  const raw = first(req.query as Query, 'days');
  if (raw === undefined || raw.trim() === '') return 1;
  // Python's int(): ` 7 ` is 7, as the original console sends it.
  const days = queryInt(raw);
  if (days === undefined || days < 1 || days > MAX_DAYS)
    throw new ApiError(400, { days: [tr(req.lang, M.days_invalid, { max: String(MAX_DAYS) })] });
  return days;
}

type Data = Record<string, unknown>;

/** One entry per flag: what it adds to the answer. */
async function compute(flag: Flag, m: Metrics, days: DayRange[], req: FastifyRequest, out: Data): Promise<void> {
  const from = days[0]!.start;
  switch (flag) {
    case 'total_count_users':
      out[flag] = await m.users();
      return;
    case 'total_count_assets':
      out[flag] = await m.assets();
      return;
    case 'total_count_users_this_week':
      out[flag] = await m.users(weekStart(req.tz));
      return;
    case 'total_count_assets_this_week':
      out[flag] = await m.assets(weekStart(req.tz));
      return;
    case 'total_count_login_users':
      out[flag] = await m.distinctInSessions('user', from);
      return;
    case 'total_count_today_active_assets':
      out[flag] = await m.distinctInSessions('asset', from);
      return;
    case 'total_count_online_users':
      out[flag] = (await m.online()).users;
      return;
    case 'total_count_online_sessions':
      out[flag] = (await m.online()).sessions;
      return;
    case 'total_count_today_failed_sessions':
      out[flag] = await m.sessionCount(from, undefined, 'failed');
      return;
    case 'total_count_user_login_logs':
      out[flag] = await m.loginLogCount(from);
      return;
    case 'total_count_user_login_success_logs':
      out[flag] = await m.loginLogCount(from, undefined, true);
      return;
    case 'total_count_operate_logs':
      out[flag] = await m.operateLogCount(from);
      return;
    case 'total_count_change_password_logs':
      out[flag] = await m.passwordChangeCount(from);
      return;
    case 'total_count_commands':
      out[flag] = (await m.commands(from)).total;
      return;
    case 'total_count_commands_danger':
      out[flag] = (await m.commands(from)).danger;
      return;
    case 'total_count_history_sessions':
      out[flag] = await m.sessionCount(from, undefined, 'finished');
      return;
    case 'total_count_ftp_logs':
      out[flag] = await m.ftpLogCount(from);
      return;
    case 'total_count_job_logs':
      out[flag] = await m.jobLogCount(from);
      return;
    case 'total_count_job_logs_running':
      out[flag] = await m.jobLogCount(from, 'running');
      return;
    case 'total_count_job_logs_failed':
      out[flag] = await m.jobLogCount(from, 'failed');
      return;
    case 'total_count_type_to_assets_amount':
      out[flag] = await m.assetTypes(req.lang);
      return;
    case 'session_dates_metrics':
      out.dates_metrics_date = days.map((d) => d.label);
      out.dates_metrics_total_count_session = (await m.sessionsPerDay(days)).sessions;
      return;
    case 'dates_metrics':
      out.dates_metrics_date = days.map((d) => d.label);
      out.dates_metrics_total_count_login = await m.loginsPerDay(days);
      out.dates_metrics_total_count_active_users = (await m.sessionsPerDay(days)).users;
      out.dates_metrics_total_count_active_assets = (await m.sessionsPerDay(days)).assets;
      return;
    case 'dates_login_times_top10_assets':
      out[flag] = await m.top10('asset', from);
      return;
    case 'dates_login_times_top10_users':
      out[flag] = await m.top10('user', from);
      return;
    case 'dates_login_record_top10_sessions':
      out[flag] = await m.lastSessions(from);
      return;
  }
}

/**
 * `GET /api/v1/index/` (rbac.view_console or rbac.view_audit): the dashboards' counters, per-day
 * series and rankings, each turned on by its flag (`=1`), `total_count=1` for every counter,
 * `all=1` for everything; `days=N` (default 1: today) sets the range in the caller's time zone.
 * Queries run one after another: on SQLite they share one connection anyway.
 */
export function registerDashboardRoutes(app: FastifyInstance): void {
  const describe = shape('dashboard', {
    ...Object.fromEntries(COUNTS.map((c) => [c, c === 'total_count_type_to_assets_amount' ? 'list' : 'integer'])),
    ...Object.fromEntries(OTHERS.map((c) => [c, 'json'])),
  });
  app.get('/api/v1/index/', { config: { perm: 'rbac.view_console | rbac.view_audit', describe } }, async (req) => {
    const flags = flagsOf(req.query as Query);
    const days = lastDays(daysOf(req), req.tz);
    const m = new Metrics(req.db, req.org.id);
    const out: Data = {};
    for (const flag of flags) await compute(flag, m, days, req, out);
    return out;
  });
}
