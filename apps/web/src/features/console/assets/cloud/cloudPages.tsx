import { App, Button, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../../resource/formatters.tsx';
import { ListPage } from '../../../../resource/resourcePages.tsx';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import type { ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import { taskLogPath } from '../detail/useTaskResult.ts';
import { CloudAttrsInput, cleanAttrs, cloudAttrsEncrypted } from './CloudAttrsInput.tsx';
import { cloudAccountRoute, cloudStrategyRoute, cloudTaskRoute } from './cloudResources.ts';

/** The cloud center's pages: its three tabs over the generic lists, forms and details (docs/cloud.md). */
const TABS = [
  { key: 'sync-instance-tasks', title: 'assets.cloud.Tasks' },
  { key: 'accounts', title: 'assets.cloud.Accounts' },
  { key: 'strategies', title: 'assets.cloud.Strategies' },
];

function CloudCenter({ active, cfg }: { active: string; cfg: ResourcePagesConfig }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <Tabs
        activeKey={active}
        items={TABS.map((tab) => ({ key: tab.key, label: t(tab.title) }))}
        onChange={(key) => void navigate(`/console/assets/cloud/${key}/`)}
      />
      <ListPage cfg={cfg} />
    </>
  );
}

/** Opens the task log of a task id in a new tab (opened first so the browser allows it). */
function useOpenLog() {
  const { message } = App.useApp();
  return (start: () => Promise<{ task: string }>, reload: () => void) => {
    const tab = window.open('about:blank', '_blank');
    start()
      .then(({ task }) => {
        if (tab) tab.location.href = taskLogPath(task);
        setTimeout(reload, 2000);
      })
      .catch((e: unknown) => {
        tab?.close();
        void message.error(e instanceof Error ? e.message : String(e));
      });
  };
}

function RunButtonList({ cfg }: { cfg: ResourcePagesConfig }) {
  const open = useOpenLog();
  return (
    <CloudCenter
      active="sync-instance-tasks"
      cfg={{
        ...cfg,
        list: {
          ...cfg.list,
          rowActions: {
            hasClone: false,
            extra: [
              {
                name: 'execute',
                title: 'assets.cloud.Execute',
                order: -1,
                onClick: (row, reload) =>
                  open(() => http.get<{ task: string }>(`${cloudTaskRoute.url}${row.id}/run/`), reload),
              },
            ],
          },
        },
      }}
    />
  );
}

function AccountList({ cfg }: { cfg: ResourcePagesConfig }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <CloudCenter
      active="accounts"
      cfg={{
        ...cfg,
        list: {
          ...cfg.list,
          rowActions: {
            hasClone: false,
            extra: [
              {
                name: 'test',
                title: 'assets.cloud.Test',
                order: -1,
                onClick: (row, reload) => {
                  http
                    .get<{ msg: string }>(`${cloudAccountRoute.url}${row.id}/test-connective/`)
                    .then((r) => void message.success(r.msg))
                    .catch((e: unknown) => void message.error(e instanceof Error ? e.message : t('assets.cloud.Test')))
                    .finally(reload);
                },
              },
            ],
          },
        },
      }}
    />
  );
}

const listCount: CellFormatter = ({ value }) => (Array.isArray(value) ? value.length : 0);
const summary: CellFormatter = ({ value }) =>
  value && typeof value === 'object'
    ? Object.entries(value as Record<string, unknown>)
        .filter(([, n]) => n !== 0)
        .map(([k, n]) => `${k}: ${String(n)}`)
        .join(', ')
    : '-';

function History({ task }: { task: ResourceObject }) {
  return (
    <ResourceList
      url={`${cloudTaskRoute.url}${task.id}/history/`}
      name="CloudTaskHistory"
      columns={['date_created', 'trigger', 'status', 'summary', 'time_cost']}
      columnsMeta={{ summary: { formatter: summary } }}
      noSelection
      headerActions={{ hasCreate: false, hasBulkDelete: false, hasImport: false, hasExport: false }}
      rowActions={{
        hasUpdate: false,
        hasDelete: false,
        hasClone: false,
        extra: [
          {
            name: 'log',
            title: 'assets.cloud.Log',
            onClick: (row) => window.open(taskLogPath(String(row.id)), '_blank'),
          },
        ],
      }}
      detailPath={() => undefined}
    />
  );
}

/** "Release": deletes the assets still kept for the task's released instances, after a confirmation. */
function ReleaseButton({ task, reload }: { task: ResourceObject; reload: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const release = () =>
    modal.confirm({
      title: t('assets.cloud.Release'),
      content: t('assets.cloud.ReleaseConfirm'),
      okButtonProps: { danger: true },
      onOk: () =>
        http
          .delete<{ deleted: number }>(`${cloudTaskRoute.url}${task.id}/released-assets/`)
          .then((r) => void message.success(t('assets.cloud.Released', { count: r.deleted })))
          .catch((e: unknown) => void message.error(e instanceof Error ? e.message : t('assets.cloud.Release')))
          .finally(reload),
    });
  return (
    <Button danger data-testid="cloud-release" onClick={release}>
      {t('assets.cloud.Release')}
    </Button>
  );
}

function Instances({ task }: { task: ResourceObject }) {
  return (
    <ResourceList
      url={`${cloudTaskRoute.url}${task.id}/instances/`}
      name="CloudTaskInstances"
      columns={['name', 'address', 'region', 'instance_id', 'status', 'date_sync']}
      noSelection
      headerActions={{
        hasCreate: false,
        hasBulkDelete: false,
        hasImport: false,
        hasExport: false,
        extra: [{ key: 'release', render: (reload) => <ReleaseButton task={task} reload={reload} /> }],
      }}
      rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
      detailPath={() => undefined}
    />
  );
}

export const cloudTaskPages: ResourcePagesConfig = {
  ...cloudTaskRoute,
  listPage: (cfg) => <RunButtonList cfg={cfg} />,
  list: {
    name: 'SyncInstanceTaskList',
    columns: ['name', 'account', 'hostname_strategy', 'release_policy', 'is_periodic', 'date_last_sync'],
    columnsShow: { min: ['name', 'actions'] },
  },
  form: {
    groups: [
      { title: 'assets.group.Basic', fields: ['name'] },
      { title: 'assets.cloud.Source', fields: ['account', 'regions'] },
      {
        title: 'assets.cloud.Save',
        fields: ['nodes', 'hostname_strategy', 'platform', 'protocols', 'release_policy'],
      },
      { title: 'assets.cloud.Strategies', fields: ['strategies'] },
      { title: 'assets.cloud.Timer', fields: ['is_periodic', 'crontab', 'interval'] },
      { title: 'assets.group.Other', fields: ['comment'] },
    ],
    fieldsMeta: {
      account: { url: cloudAccountRoute.url },
      platform: { url: '/api/v1/assets/platforms/?category=host' },
      nodes: {
        widget: 'remoteMultiple',
        url: '/api/v1/assets/nodes/',
        optionLabel: (o) => String(o.full_value ?? o.value ?? o.id),
      },
      regions: { widget: 'tags' },
      strategies: { widget: 'remoteMultiple', url: cloudStrategyRoute.url },
      protocols: { widget: 'json' },
    },
  },
  detail: {
    tabs: [
      {
        name: 'SyncInstanceTaskDetail',
        title: 'assets.tab.Detail',
        render: (task, { meta }) => (
          <DetailCard
            title="assets.card.basic"
            object={task}
            meta={meta}
            fields={[
              'id',
              'name',
              'account',
              'regions',
              'hostname_strategy',
              'release_policy',
              'is_periodic',
              'crontab',
              'interval',
              'date_last_sync',
              'date_created',
              'comment',
            ]}
          />
        ),
      },
      { name: 'CloudTaskHistory', title: 'assets.cloud.History', render: (task) => <History task={task} /> },
      { name: 'CloudTaskInstances', title: 'assets.cloud.Instances', render: (task) => <Instances task={task} /> },
    ],
  },
};

export const cloudAccountPages: ResourcePagesConfig = {
  ...cloudAccountRoute,
  listPage: (cfg) => <AccountList cfg={cfg} />,
  list: {
    name: 'CloudAccountList',
    columns: ['name', 'provider', 'validity', 'date_last_test', 'comment'],
    columnsShow: { min: ['name', 'actions'] },
  },
  form: {
    groups: [
      { title: 'assets.group.Basic', fields: ['name', 'provider'] },
      { title: 'assets.cloud.Attrs', fields: ['attrs'] },
      { title: 'assets.group.Other', fields: ['comment'] },
    ],
    fieldsMeta: { attrs: { render: () => <CloudAttrsInput /> } },
    initial: (q) => ({ provider: q.get('provider') ?? 'lan', attrs: '{}' }),
    cleanValues: (values) => ({ ...values, attrs: cleanAttrs(values.provider, values.attrs) }),
    encryptedFields: cloudAttrsEncrypted,
  },
  detail: {
    tabs: [
      {
        name: 'CloudAccountDetail',
        title: 'assets.tab.Detail',
        render: (account, { meta }) => (
          <DetailCard
            title="assets.card.basic"
            object={account}
            meta={meta}
            fields={['id', 'name', 'provider', 'attrs', 'validity', 'date_last_test', 'date_created', 'comment']}
          />
        ),
      },
    ],
  },
};

export const cloudStrategyPages: ResourcePagesConfig = {
  ...cloudStrategyRoute,
  listPage: (cfg) => <CloudCenter active="strategies" cfg={cfg} />,
  list: {
    name: 'CloudStrategyList',
    columns: ['name', 'priority', 'strategy_rules', 'strategy_actions', 'comment'],
    columnsMeta: { strategy_rules: { formatter: listCount }, strategy_actions: { formatter: listCount } },
    columnsShow: { min: ['name', 'actions'] },
  },
  form: {
    groups: [
      { title: 'assets.group.Basic', fields: ['name', 'priority', 'rule_relation'] },
      { title: 'assets.cloud.Strategy', fields: ['strategy_rules', 'strategy_actions'] },
      { title: 'assets.group.Other', fields: ['comment'] },
    ],
    fieldsMeta: { strategy_rules: { widget: 'json' }, strategy_actions: { widget: 'json' } },
  },
  detail: {
    tabs: [
      {
        name: 'CloudStrategyDetail',
        title: 'assets.tab.Detail',
        render: (s, { meta }) => (
          <DetailCard
            title="assets.card.basic"
            object={s}
            meta={meta}
            fields={['id', 'name', 'priority', 'rule_relation', 'strategy_rules', 'strategy_actions', 'comment']}
          />
        ),
      },
    ],
  },
};
