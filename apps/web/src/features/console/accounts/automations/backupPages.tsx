import { App, Button, Card, Col, Row, Space, Tag, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAppStore } from '../../../../lib/appStore.ts';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import type { ResourcePageParts, ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import { TabPage } from '../../../../resource/TabPage.tsx';
import { useAction } from '../../../../resource/useAction.ts';
import { taskLogPath } from './automationApi.ts';
import { BACKUP_EXECUTIONS, downloadBackup, REPLAY_STORAGES, runBackup } from './backupApi.ts';

/**
 * Account backup plans (console reference §3.9 "Backup"): the plans with "Execute", their
 * executions with "Log" and, for superusers, "Download" (the server asks to verify again); the
 * form's types are a tree of the asset categories and their types; the recipients are users, or
 * SFTP replay storages when the plan sends to object storage.
 */
type Values = Record<string, unknown>;
const choiceOf = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);
const toStorage = (v: Values) => choiceOf(v.backup_type) === 'object_storage';
const NO_WRITE = { hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false };
const NO_ROW_WRITE = { hasUpdate: false, hasDelete: false, hasClone: false };

/** Asset categories and types as one checkable tree (the values are category or type names). */
function TypesField({ value = [], onChange }: { value?: string[]; onChange?: (v: string[]) => void }) {
  const categories = useAppStore((s) => s.categories);
  return (
    <TreeSelect
      data-testid="backup-types"
      treeCheckable
      showCheckedStrategy={TreeSelect.SHOW_PARENT}
      value={value}
      onChange={(v: string[]) => onChange?.(v)}
      treeData={categories.map((c) => ({
        title: c.label,
        value: c.value,
        key: c.value,
        children: c.types.map((tp) => ({ title: tp.label, value: tp.value, key: `${c.value}/${tp.value}` })),
      }))}
    />
  );
}

function Executions({ plan }: { plan?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const superuser = useAppStore((s) => Boolean(s.profile?.is_superuser));
  return (
    <ResourceList
      url={BACKUP_EXECUTIONS}
      name="backup-executions"
      permissions={{ app: 'accounts', resource: 'accountbackupautomation' }}
      paths={null}
      noSelection
      extraQuery={plan ? { plan_id: plan } : undefined}
      columnsShow={{
        default: ['snapshot', 'timedelta', 'trigger', 'date_start', 'is_success', 'reason', 'actions'],
        min: ['snapshot', 'actions'],
      }}
      columnsMeta={{
        snapshot: { formatter: ({ value }) => String((value as { name?: string } | null)?.name ?? '-') },
        is_success: {
          formatter: ({ value, row }) =>
            row.status === 'pending' || row.status === 'running' ? (
              <Tag>{t('automations.backup.running')}</Tag>
            ) : (
              <Tag color={value ? 'green' : 'red'}>
                {t(value ? 'automations.backup.ok' : 'automations.backup.failed')}
              </Tag>
            ),
        },
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
            name: 'download',
            title: 'automations.action.download',
            order: 2,
            // A file the daily clean-up removed (backup_removed) has nothing to download.
            has: (row) => superuser && Boolean(row.is_success) && !row.backup_removed,
            onClick: (row) =>
              void downloadBackup(String(row.id)).catch((e: unknown) => void message.error(errorMessage(e, t))),
          },
        ],
      }}
    />
  );
}

function ListPage({ cfg }: { cfg: ResourcePagesConfig }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const plan = params.get('plan_id') ?? undefined;
  return (
    <TabPage
      items={[
        {
          name: 'plans',
          title: t(cfg.titles.list),
          render: () => <ResourceList url={cfg.url} permissions={cfg.permissions} urlQuery {...cfg.list} />,
        },
        { name: 'executions', title: t('automations.tab.executions'), render: () => <Executions plan={plan} /> },
      ]}
    />
  );
}

function RunButton({ id }: { id: string }) {
  const { t } = useTranslation();
  const action = useAction();
  return (
    <Button
      type="primary"
      data-testid="backup-run"
      loading={action.busy}
      onClick={() => void action.run(() => runBackup(id), t('automations.msg.started'))}
    >
      {t('automations.action.execute')}
    </Button>
  );
}

const userList = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** Category or type names with their labels (`types` holds either). */
function typeLabels(v: unknown): string {
  const labels = new Map<string, string>();
  for (const c of useAppStore.getState().categories) {
    labels.set(c.value, c.label);
    for (const tp of c.types) labels.set(tp.value, tp.label);
  }
  return ((v as string[] | undefined) ?? []).map((x) => labels.get(x) ?? x).join(', ') || '-';
}

export function backupPages(): ResourcePageParts {
  return {
    listPage: (cfg) => <ListPage cfg={cfg} />,
    list: {
      name: 'backup-plans',
      columnsShow: {
        default: ['name', 'backup_type', 'is_periodic', 'periodic_display', 'executed_amount', 'actions'],
        min: ['name', 'actions'],
      },
      columnsMeta: {
        types: { formatter: ({ value }) => typeLabels(value) },
      },
      headerActions: { hasImport: false, hasExport: false },
      rowActions: {
        extra: [
          {
            name: 'execute',
            title: 'automations.action.execute',
            order: 1,
            onClick: (row) => void runBackup(String(row.id)),
          },
        ],
      },
    },
    form: {
      groups: [
        { title: 'automations.group.basic', fields: ['name'] },
        { title: 'automations.group.types', fields: ['types'] },
        {
          title: 'automations.group.backup',
          fields: [
            'backup_type',
            'recipients_part_one',
            'recipients_part_two',
            'obj_recipients_part_one',
            'obj_recipients_part_two',
          ],
        },
        { title: 'automations.group.timer', fields: ['is_periodic', 'crontab', 'interval'] },
        { title: 'automations.group.other', fields: ['comment'] },
      ],
      initial: { backup_type: 'email', is_periodic: false, interval: 24 },
      fieldsMeta: {
        types: { render: () => <TypesField /> },
        // Users, each told their half (the server keeps them to the org's members).
        recipients_part_one: { widget: 'remoteMultiple', url: '/api/v1/users/users/' },
        recipients_part_two: { widget: 'remoteMultiple', url: '/api/v1/users/users/' },
        obj_recipients_part_one: {
          widget: 'remoteMultiple',
          url: `${REPLAY_STORAGES}?type=sftp`,
          hidden: (v) => !toStorage(v),
        },
        obj_recipients_part_two: {
          widget: 'remoteMultiple',
          url: `${REPLAY_STORAGES}?type=sftp`,
          hidden: (v) => !toStorage(v),
        },
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
                    'types',
                    'backup_type',
                    'recipients_part_one',
                    'recipients_part_two',
                    'is_periodic',
                    'periodic_display',
                    'executed_amount',
                    'created_by',
                    'date_created',
                    'date_updated',
                    'comment',
                  ]}
                  formatters={{
                    types: ({ value }) => typeLabels(value),
                    recipients_part_one: ({ value }) => String(userList(value)),
                    recipients_part_two: ({ value }) => String(userList(value)),
                  }}
                />
              </Col>
              <Col xs={24} lg={10}>
                <Card title={<QuickTitle />}>
                  <Space>
                    <RunButton id={String(plan.id)} />
                  </Space>
                </Card>
              </Col>
            </Row>
          ),
        },
        {
          name: 'executions',
          title: 'automations.tab.executions',
          render: (plan) => <Executions plan={String(plan.id)} />,
        },
      ],
    },
  };
}

function QuickTitle() {
  const { t } = useTranslation();
  return <>{t('automations.card.quickActions')}</>;
}
