import { http } from '../../../../lib/http.ts';

/** The two automations the console manages here (contract §4.11), their API and console paths. */
export type AutomationKind = 'change_secret' | 'push_account' | 'gather_accounts';

export interface KindUrls {
  plans: string;
  executions: string;
  /** Per-account records ('' : gather keeps gathered accounts instead). */
  records: string;
  /** Prefix of the membership helpers (`<id>/assets/`, `<id>/asset/add/`, `<id>/nodes/?action=`); '' for none. */
  members: string;
  /** The permission name of the records (push records are read with the push executions' permission). */
  recordsPermission: { app: string; resource: string };
}

export const KIND_URLS: Record<AutomationKind, KindUrls> = {
  change_secret: {
    plans: '/api/v1/accounts/change-secret-automations/',
    executions: '/api/v1/accounts/change-secret-executions/',
    records: '/api/v1/accounts/change-secret-records/',
    members: '/api/v1/accounts/change-secret/',
    recordsPermission: { app: 'accounts', resource: 'changesecretrecord' },
  },
  push_account: {
    plans: '/api/v1/accounts/push-account-automations/',
    executions: '/api/v1/accounts/push-account-executions/',
    records: '/api/v1/accounts/push-account-records/',
    members: '/api/v1/accounts/push-account/',
    recordsPermission: { app: 'accounts', resource: 'pushaccountexecution' },
  },
  gather_accounts: {
    plans: '/api/v1/accounts/gather-account-automations/',
    executions: '/api/v1/accounts/gather-account-executions/',
    records: '',
    members: '',
    recordsPermission: { app: 'accounts', resource: 'gatheredaccount' },
  },
};

export const GATHERED = '/api/v1/accounts/gathered-accounts/';

export const syncGathered = (ids: string[]) => http.post(`${GATHERED}sync-accounts/`, { gathered_account_ids: ids });

export const taskLogPath = (task: string) => `/ui/ops/celery/task/${task}/log/`;

/** Runs a plan now and opens its task log (the execution's id is its task id). */
export async function runNow(kind: AutomationKind, automation: string): Promise<string> {
  const { task } = await http.post<{ task: string }>(KIND_URLS[kind].executions, { automation });
  window.open(taskLogPath(task), '_blank', 'noopener');
  return task;
}

export const assetsOf = (kind: AutomationKind, id: string) =>
  http.get<{ id: string; name: string; address: string }[]>(`${KIND_URLS[kind].members}${id}/assets/`);

export const changeAssets = (kind: AutomationKind, id: string, action: 'add' | 'remove', assets: string[]) =>
  http.patch(`${KIND_URLS[kind].members}${id}/asset/${action}/`, { assets });

export const changeNodes = (kind: AutomationKind, id: string, action: 'add' | 'remove', nodes: string[]) =>
  http.patch(`${KIND_URLS[kind].members}${id}/nodes/?action=${action}`, { nodes });
