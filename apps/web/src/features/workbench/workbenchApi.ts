import { http } from '../../lib/http.ts';
import { TICKETS_URL, type Ticket } from '../tickets/ticketsApi.ts';

/** The calls of the workbench home. */
export interface LabeledValue<T = string> {
  value: T;
  label: string;
}

export interface LoginLog {
  id: string;
  username: string;
  type: LabeledValue;
  ip: string;
  city: string;
  user_agent: string;
  mfa: LabeledValue<number>;
  reason: string;
  reason_display: string;
  backend: string;
  backend_display: string;
  status: LabeledValue<boolean>;
  datetime: string;
}

/** One of the user's sessions as `my-sessions/` answers it (the sessions list's shape). */
export interface MySession {
  id: string;
  user: string;
  asset: string;
  asset_id: string;
  account: string;
  account_id: string;
  protocol: string;
  type: LabeledValue;
  login_from: LabeledValue;
  remote_addr: string;
  is_finished: boolean;
  date_start: string;
}

export interface Page<T> {
  count: number;
  results: T[];
}

export const RECENT_LOGINS_KEY = ['workbench', 'my-login-logs'];

export const fetchRecentLogins = () => http.get<Page<LoginLog>>('/api/v1/audits/my-login-logs/?limit=5');

export const RECENT_SESSIONS_KEY = ['workbench', 'my-sessions'];

/** The user's five latest sessions in the current org. */
export const fetchRecentSessions = () => http.get<Page<MySession>>('/api/v1/terminal/my-sessions/?limit=5');

/** The open tickets waiting for the user's decision at their current step (five latest). */
export const fetchAssignedTickets = (me: string) =>
  http.get<Page<Ticket>>(TICKETS_URL, { params: { assignees__id: me, state: 'pending', offset: 0, limit: 5 } });
