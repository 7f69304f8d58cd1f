import { http } from '../../lib/http.ts';

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

export interface Page<T> {
  count: number;
  results: T[];
}

export const RECENT_LOGINS_KEY = ['workbench', 'my-login-logs'];

export const fetchRecentLogins = () => http.get<Page<LoginLog>>('/api/v1/audits/my-login-logs/?limit=5');
