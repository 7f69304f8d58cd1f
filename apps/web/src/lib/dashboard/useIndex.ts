import { useQuery } from '@tanstack/react-query';
import { http } from '../http.ts';
import { useAppStore } from '../appStore.ts';

/** Counters, series and rankings of `GET /api/v1/index/`, by flag (see the server's `modules/dashboard`). */
type Counter =
  | 'users'
  | 'assets'
  | 'users_this_week'
  | 'assets_this_week'
  | 'login_users'
  | 'today_active_assets'
  | 'online_users'
  | 'online_sessions'
  | 'today_failed_sessions'
  | 'user_login_logs'
  | 'user_login_success_logs'
  | 'operate_logs'
  | 'change_password_logs'
  | 'commands'
  | 'commands_danger'
  | 'history_sessions'
  | 'ftp_logs'
  | 'job_logs'
  | 'job_logs_running'
  | 'job_logs_failed';

export type IndexData = Partial<Record<`total_count_${Counter}`, number>> & IndexSeries;

interface IndexSeries {
  total_count_type_to_assets_amount?: { type: string; label: string; total: number }[];
  dates_metrics_date?: string[];
  dates_metrics_total_count_session?: number[];
  dates_metrics_total_count_login?: number[];
  dates_metrics_total_count_active_users?: number[];
  dates_metrics_total_count_active_assets?: number[];
  dates_login_times_top10_users?: { user: string; total: number }[];
  dates_login_times_top10_assets?: { asset: string; total: number }[];
}

/** One dashboard card's query: its flags (each `=1`) and the range in days; refetched per org. */
export function useIndex(flags: string[], days?: number) {
  const org = useAppStore((s) => s.currentOrg?.id);
  const params: Record<string, string> = Object.fromEntries(flags.map((f) => [f, '1']));
  if (days) params.days = String(days);
  return useQuery({
    queryKey: ['dashboard-index', org, params],
    queryFn: () => http.get<IndexData>('/api/v1/index/', { params }),
  });
}
