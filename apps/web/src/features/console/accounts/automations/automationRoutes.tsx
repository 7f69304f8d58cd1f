import { CloudUploadOutlined, SafetyOutlined, SearchOutlined, SyncOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../../resource/resourceRoute.tsx';
import { KIND_URLS, type AutomationKind } from './automationApi.ts';
import { BACKUP_PLANS } from './backupApi.ts';

/** The route parts of the change-secret and push pages (the page parts load with the pages: automationPages.tsx). */
export const automationRoutes: Record<AutomationKind, ResourceRouteConfig> = {
  change_secret: {
    path: 'account-change-secret',
    url: KIND_URLS.change_secret.plans,
    routeName: 'AccountChangeSecret',
    titles: {
      list: 'automations.route.changeSecretList',
      create: 'automations.route.changeSecretCreate',
      update: 'automations.route.changeSecretUpdate',
      detail: 'automations.route.changeSecretDetail',
    },
    kind: 'automations.kind.changeSecret',
    icon: <SyncOutlined />,
    permissions: { app: 'accounts', resource: 'changesecretautomation' },
  },
  push_account: {
    path: 'account-push',
    url: KIND_URLS.push_account.plans,
    routeName: 'AccountPush',
    titles: {
      list: 'automations.route.pushList',
      create: 'automations.route.pushCreate',
      update: 'automations.route.pushUpdate',
      detail: 'automations.route.pushDetail',
    },
    kind: 'automations.kind.push',
    icon: <CloudUploadOutlined />,
    permissions: { app: 'accounts', resource: 'pushaccountautomation' },
  },
  gather_accounts: {
    path: 'account-gather',
    url: KIND_URLS.gather_accounts.plans,
    routeName: 'AccountGather',
    titles: {
      list: 'automations.route.gatherList',
      create: 'automations.route.gatherCreate',
      update: 'automations.route.gatherUpdate',
      detail: 'automations.route.gatherDetail',
    },
    kind: 'automations.kind.gather',
    icon: <SearchOutlined />,
    permissions: { app: 'accounts', resource: 'gatheraccountsautomation' },
  },
};

/** The account backup page (backupPages.tsx). */
export const backupRoute: ResourceRouteConfig = {
  path: 'account-backup',
  url: BACKUP_PLANS,
  routeName: 'AccountBackup',
  titles: {
    list: 'automations.route.backupList',
    create: 'automations.route.backupCreate',
    update: 'automations.route.backupUpdate',
    detail: 'automations.route.backupDetail',
  },
  kind: 'automations.kind.backup',
  icon: <SafetyOutlined />,
  permissions: { app: 'accounts', resource: 'accountbackupautomation' },
};
