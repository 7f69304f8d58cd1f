import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Col, Row, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import { RelationCard } from '../../../../resource/RelationCard.tsx';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import type { ResourcePageParts, ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import { TabPage } from '../../../../resource/TabPage.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import { useAction } from '../../../../resource/useAction.ts';
import {
  assetsOf,
  changeAssets,
  changeNodes,
  GATHERED,
  KIND_URLS,
  runNow,
  syncGathered,
  taskLogPath,
  type AutomationKind,
} from './automationApi.ts';

/**
 * Change-secret and push plans (console reference §3.9): one page part per kind over the generic
 * list, form and detail. The list page has three tabs (plans with "Execute", executions with "Log"
 * and "Records", the per-account records); the detail has the plan, its assets and nodes (the
 * membership helpers) and its executions.
 */
type Values = Record<string, unknown>;
const choiceOf = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);
const isRandom = (v: Values) => choiceOf(v.secret_strategy) === 'random';
const isKey = (v: Values) => choiceOf(v.secret_type) === 'ssh_key';
const nameOf = (v: unknown) => String((v as { name?: string } | null)?.name ?? '-');
const NO_WRITE = { hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false };
const NO_ROW_WRITE = { hasUpdate: false, hasDelete: false, hasClone: false };

function stateTag(state: unknown, t: (k: string) => string) {
  const s = String(state ?? '');
  if (!s) return '-';
  const color = s === 'new' ? 'green' : s === 'old' ? 'blue' : 'red';
  return <Tag color={color}>{t(`automations.state.${s}`)}</Tag>;
}

function Executions({ kind, automation }: { kind: AutomationKind; automation?: string }) {
  const navigate = useNavigate();
  const urls = KIND_URLS[kind];
  return (
    <ResourceList
      url={urls.executions}
      name={`${kind}-executions`}
      paths={null}
      noSelection
      extraQuery={automation ? { automation_id: automation } : undefined}
      columnsShow={{
        default: ['snapshot', 'status', 'trigger', 'date_start', 'date_finished', 'timedelta', 'actions'],
        min: ['snapshot', 'actions'],
      }}
      columnsMeta={{
        snapshot: { formatter: ({ value }) => nameOf(value) },
        summary: { formatter: ({ value }) => JSON.stringify(value ?? {}) },
      }}
      headerActions={NO_WRITE}
      rowActions={{
        ...NO_ROW_WRITE,
        extra: [
          {
            name: 'log',
            title: 'automations.action.log',
            order: 1,
            onClick: (row) => window.open(taskLogPath(String(row.id)), '_blank', 'noopener'),
          },
          {
            name: 'records',
            title: 'automations.action.records',
            order: 2,
            has: () => Boolean(urls.records),
            onClick: (row) => navigate(`?activeTab=records&execution_id=${String(row.id)}`),
          },
        ],
      }}
    />
  );
}

function Records({ kind, execution }: { kind: AutomationKind; execution?: string }) {
  const { t } = useTranslation();
  const urls = KIND_URLS[kind];
  return (
    <ResourceList
      url={urls.records}
      name={`${kind}-records`}
      permissions={urls.recordsPermission}
      paths={null}
      noSelection
      extraQuery={execution ? { execution_id: execution } : undefined}
      columnsShow={{
        default: ['asset', 'account', 'is_success', 'state', 'error', 'date_finished', 'timedelta'],
        min: ['asset', 'account'],
      }}
      columnsMeta={{
        asset: { formatter: ({ value }) => nameOf(value) },
        account: { formatter: ({ value }) => nameOf(value) },
        execution: { formatter: ({ value }) => nameOf(value) },
        state: { formatter: ({ value }) => stateTag(value, t) },
      }}
      headerActions={NO_WRITE}
      rowActions={{ ...NO_ROW_WRITE }}
    />
  );
}

/** What gather found, against the vault, with "Sync" into it (one row or the selected ones). */
function Gathered() {
  const { t } = useTranslation();
  const action = useAction();
  const sync = (ids: string[], reload: () => void) =>
    void action.run(() => syncGathered(ids), t('automations.msg.synced')).then((ok) => ok && reload());
  return (
    <ResourceList
      url={GATHERED}
      name="gathered-accounts"
      paths={null}
      columnsShow={{
        default: ['asset', 'username', 'vault', 'present', 'date_last_login', 'date_updated', 'actions'],
        min: ['username', 'actions'],
      }}
      columnsMeta={{
        asset: { formatter: ({ value }) => nameOf(value) },
        vault: {
          formatter: ({ value }) => (
            <Tag color={value === 'new' ? 'orange' : 'default'}>{t(`automations.vault.${String(value)}`)}</Tag>
          ),
        },
      }}
      headerActions={{
        ...NO_WRITE,
        batchExtra: [
          {
            key: 'sync',
            label: t('automations.action.sync'),
            onClick: (rows, reload) =>
              sync(
                rows.map((r) => String(r.id)),
                reload,
              ),
          },
        ],
      }}
      rowActions={{
        ...NO_ROW_WRITE,
        extra: [
          {
            name: 'sync',
            title: 'automations.action.sync',
            order: 1,
            onClick: (row, reload) => sync([String(row.id)], reload),
          },
        ],
      }}
    />
  );
}

function ListPage({ kind, cfg }: { kind: AutomationKind; cfg: ResourcePagesConfig }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const execution = params.get('execution_id') ?? undefined;
  const automation = params.get('automation_id') ?? undefined;
  const gather = kind === 'gather_accounts';
  return (
    <TabPage
      items={[
        ...(gather ? [{ name: 'gathered', title: t('automations.tab.gathered'), render: () => <Gathered /> }] : []),
        {
          name: 'plans',
          title: t(cfg.titles.list),
          render: () => <ResourceList url={cfg.url} permissions={cfg.permissions} urlQuery {...cfg.list} />,
        },
        {
          name: 'executions',
          title: t('automations.tab.executions'),
          render: () => <Executions kind={kind} automation={automation} />,
        },
        ...(gather
          ? []
          : [
              {
                name: 'records',
                title: t('automations.tab.records'),
                render: () => <Records kind={kind} execution={execution} />,
              },
            ]),
      ]}
    />
  );
}

function RunButton({ kind, id }: { kind: AutomationKind; id: string }) {
  const { t } = useTranslation();
  const action = useAction();
  return (
    <Button
      type="primary"
      data-testid="automation-run"
      loading={action.busy}
      onClick={() => void action.run(() => runNow(kind, id), t('automations.msg.started'))}
    >
      {t('automations.action.execute')}
    </Button>
  );
}

function Members({ kind, plan, reload }: { kind: AutomationKind; plan: ResourceObject; reload(): void }) {
  const [assets, setAssets] = useState<{ id: string; name: string; address: string }[]>([]);
  const id = String(plan.id);
  const load = useCallback(() => void assetsOf(kind, id).then(setAssets), [kind, id]);
  useEffect(load, [load]);
  const nodes = (plan.nodes as { id: string; name: string }[] | undefined) ?? [];
  return (
    <Row gutter={16}>
      <Col xs={24} lg={12}>
        <RelationCard
          title="automations.card.assets"
          testId="automation-assets"
          items={assets.map((a) => ({ id: a.id, label: `${a.name}(${a.address})` }))}
          url="/api/v1/assets/assets/"
          onAdd={async (ids) => {
            await changeAssets(kind, id, 'add', ids);
            load();
          }}
          onRemove={async (asset) => {
            await changeAssets(kind, id, 'remove', [asset]);
            load();
          }}
          texts={{ add: 'automations.action.add', remove: 'automations.action.remove' }}
        />
      </Col>
      <Col xs={24} lg={12}>
        <RelationCard
          title="automations.card.nodes"
          items={nodes.map((n) => ({ id: n.id, label: n.name }))}
          url="/api/v1/assets/nodes/"
          onAdd={async (ids) => {
            await changeNodes(kind, id, 'add', ids);
            reload();
          }}
          onRemove={async (node) => {
            await changeNodes(kind, id, 'remove', [node]);
            reload();
          }}
          texts={{ add: 'automations.action.add', remove: 'automations.action.remove' }}
        />
      </Col>
    </Row>
  );
}

function gatherForm(): NonNullable<ResourcePageParts['form']> {
  return {
    groups: [
      { title: 'automations.group.basic', fields: ['name', 'assets', 'nodes'] },
      { title: 'automations.group.timer', fields: ['is_periodic', 'crontab', 'interval'] },
      { title: 'automations.group.other', fields: ['is_sync_account', 'is_active', 'comment'] },
    ],
    fieldsMeta: {
      assets: { url: '/api/v1/assets/assets/' },
      nodes: { url: '/api/v1/assets/nodes/' },
      crontab: { hidden: (v) => !v.is_periodic },
      interval: { hidden: (v) => !v.is_periodic },
    },
  };
}

export function automationPages(kind: AutomationKind): ResourcePageParts {
  const secretGroup = [
    'secret_type',
    'secret_strategy',
    'secret',
    'passphrase',
    'password_rules',
    'ssh_key_change_strategy',
    'params',
  ];
  return {
    listPage: (cfg) => <ListPage kind={kind} cfg={cfg} />,
    list: {
      name: `${kind}-plans`,
      columnsExclude: ['password_rules', 'params'],
      columnsShow: {
        default: [
          'name',
          ...(kind === 'gather_accounts' ? ['nodes'] : ['accounts', 'secret_strategy']),
          'is_periodic',
          'periodic_display',
          'executed_amount',
          'is_active',
          'actions',
        ],
        min: ['name', 'actions'],
      },
      columnsMeta: {
        accounts: { formatter: ({ value }) => ((value as string[] | undefined) ?? []).join(', ') || '-' },
      },
      headerActions: { hasImport: false, hasExport: false },
      rowActions: {
        extra: [
          {
            name: 'execute',
            title: 'automations.action.execute',
            order: 1,
            onClick: (row) => void runNow(kind, String(row.id)),
          },
        ],
      },
    },
    form:
      kind === 'gather_accounts'
        ? gatherForm()
        : {
            encryptedFields: ['secret', 'passphrase'],
            groups: [
              { title: 'automations.group.basic', fields: ['name'] },
              { title: 'automations.group.asset', fields: ['accounts', 'assets', 'nodes'] },
              { title: 'automations.group.strategy', fields: secretGroup },
              { title: 'automations.group.timer', fields: ['is_periodic', 'crontab', 'interval'] },
              {
                title: 'automations.group.other',
                fields: kind === 'change_secret' ? ['is_active', 'recipients', 'comment'] : ['is_active', 'comment'],
              },
            ],
            fieldsMeta: {
              assets: { url: '/api/v1/assets/assets/' },
              nodes: { url: '/api/v1/assets/nodes/' },
              // Users told the result by a site message (the server keeps them to the org's members).
              recipients: { widget: 'remoteMultiple', url: '/api/v1/users/users/' },
              secret: { widget: 'textarea', hidden: (v) => isRandom(v) },
              passphrase: { widget: 'password', hidden: (v) => !isKey(v) || isRandom(v) },
              password_rules: { hidden: (v) => !isRandom(v) || isKey(v) },
              ssh_key_change_strategy: { hidden: (v) => !isKey(v) },
              crontab: { hidden: (v) => !v.is_periodic },
              interval: { hidden: (v) => !v.is_periodic },
            },
          },
    detail: {
      tabs: [
        {
          name: 'detail',
          title: 'automations.tab.detail',
          render: (plan, { meta }) => (
            <Row gutter={16}>
              <Col xs={24} lg={14}>
                <DetailCard
                  title="automations.card.basic"
                  object={plan}
                  meta={meta}
                  fields={[
                    'id',
                    'name',
                    'accounts',
                    'secret_type',
                    'secret_strategy',
                    'ssh_key_change_strategy',
                    'is_periodic',
                    'periodic_display',
                    'executed_amount',
                    'is_active',
                    'created_by',
                    'date_created',
                    'date_updated',
                    'comment',
                  ]}
                  formatters={{ accounts: ({ value }) => ((value as string[]) ?? []).join(', ') }}
                />
              </Col>
              <Col xs={24} lg={10}>
                <Card title={<QuickTitle />}>
                  <Space>
                    <RunButton kind={kind} id={String(plan.id)} />
                  </Space>
                </Card>
              </Col>
            </Row>
          ),
        },
        {
          name: 'assets',
          title: 'automations.tab.assets',
          hidden: () => !KIND_URLS[kind].members,
          render: (plan, { reload }) => <Members kind={kind} plan={plan} reload={reload} />,
        },
        {
          name: 'executions',
          title: 'automations.tab.executions',
          render: (plan) => <Executions kind={kind} automation={String(plan.id)} />,
        },
      ],
    },
  };
}

function QuickTitle() {
  const { t } = useTranslation();
  return <>{t('automations.card.quickActions')}</>;
}
