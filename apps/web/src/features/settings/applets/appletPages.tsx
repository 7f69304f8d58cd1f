import { App, Button, Modal, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import type { ResourcePageParts } from '../../../resource/resourceRoute.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import { taskLogPath } from '../../console/assets/detail/useTaskResult.ts';
import { APPLETS_PAGE, APPLET_HOSTS_API, DEPLOYMENTS_API, PUBLICATIONS_API, appletHostRoute } from './appletConfigs.ts';

/** The page parts of an applet's detail and of the applet hosts (list, detail tabs). */
type Choice = { value: string; label: string };
interface Publication {
  id: string;
  applet: { id: string; name: string; display_name: string; version: string };
  host: { id: string; name: string };
  status: Choice;
  comment: string;
  date_updated: string;
}
interface Deployment {
  id: string;
  initial: boolean;
  applet: { name: string } | null;
  status: Choice;
  comment: string;
  task: string | null;
  date_created: string;
}

const STATUS_COLOURS: Record<string, string> = {
  pending: 'default',
  running: 'processing',
  success: 'success',
  failed: 'error',
};
const statusTag = (s: Choice) => <Tag color={STATUS_COLOURS[s.value]}>{s.label}</Tag>;

function Publications({ filter, column }: { filter: string; column: 'host' | 'applet' }) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: [PUBLICATIONS_API, filter],
    queryFn: () => http.get<Publication[]>(`${PUBLICATIONS_API}?${filter}`),
    refetchInterval: 5000,
  });
  return (
    <Table<Publication>
      rowKey="id"
      size="small"
      data-testid="publications"
      loading={list.isPending}
      dataSource={list.data ?? []}
      pagination={false}
      columns={[
        column === 'host'
          ? { title: t('applets.col.host'), render: (_: unknown, r) => r.host.name }
          : {
              title: t('applets.col.applet'),
              render: (_: unknown, r) => `${r.applet.display_name} ${r.applet.version}`,
            },
        { title: t('applets.col.status'), render: (_: unknown, r) => statusTag(r.status) },
        { title: t('applets.col.comment'), dataIndex: 'comment' },
        { title: t('applets.col.date'), dataIndex: 'date_updated' },
      ]}
    />
  );
}

/** Publishes one applet to chosen hosts (`applet-host-deployments/applets/`). */
function PublishButton({ applet }: { applet: ResourceObject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [hosts, setHosts] = useState<string[]>([]);
  const options = useQuery({
    queryKey: [APPLET_HOSTS_API, 'mini'],
    queryFn: () => http.get<{ id: string; name: string }[]>(`${APPLET_HOSTS_API}?fields_size=mini`),
    enabled: open,
  });
  const submit = async () => {
    try {
      await http.post(`${DEPLOYMENTS_API}applets/`, { hosts, applet_id: applet.id });
      message.success(t('applets.detail.published'));
      setOpen(false);
    } catch (e) {
      message.error(errorMessage(e, t));
    }
  };
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('applets.detail.publish')}</Button>
      <Modal
        open={open}
        title={t('applets.detail.publishTitle', { name: String(applet.display_name) })}
        onCancel={() => setOpen(false)}
        onOk={() => void submit()}
        okButtonProps={{ disabled: !hosts.length }}
      >
        <Select
          mode="multiple"
          style={{ width: '100%' }}
          placeholder={t('applets.detail.hosts')}
          value={hosts}
          onChange={setHosts}
          options={(options.data ?? []).map((h) => ({ value: h.id, label: h.name }))}
        />
      </Modal>
    </>
  );
}

function ActiveSwitch({ applet, reload }: { applet: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const perms = useAppStore((s) => s.perms);
  return (
    <Space>
      <Typography.Text>{t('applets.detail.active')}</Typography.Text>
      <Switch
        data-testid="applet-active"
        checked={applet.is_active === true}
        disabled={!hasPermission(perms, 'terminal.change_applet')}
        onChange={(v) =>
          void http
            .patch(`/api/v1/terminal/applets/${String(applet.id)}/`, { is_active: v })
            .then(reload)
            .catch((e: unknown) => message.error(errorMessage(e, t)))
        }
      />
    </Space>
  );
}

export const appletPages: ResourcePageParts = {
  list: { name: 'AppletList', columns: ['name', 'version'] },
  detail: {
    // Only the switch and the comment change, from the Detail tab: no update page.
    canUpdate: () => false,
    canDelete: (x) => x.builtin !== true,
    tabs: [
      {
        name: 'Detail',
        title: 'applets.tab.detail',
        render: (x, { meta, reload }) => (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space size="large" align="center">
              <img src={String(x.icon)} alt="" width={64} height={64} data-testid="applet-icon" />
              <ActiveSwitch applet={x} reload={reload} />
            </Space>
            <DetailCard
              title="applets.tab.detail"
              object={x}
              meta={meta}
              fields={[
                'name',
                'display_name',
                'version',
                'author',
                'type',
                'edition',
                'protocols',
                'tags',
                'can_concurrent',
                'comment',
                'date_created',
                'date_updated',
              ]}
            />
          </Space>
        ),
      },
      {
        name: 'AppletHosts',
        title: 'applets.tab.publications',
        render: (x) => (
          <Space direction="vertical" style={{ width: '100%' }}>
            <PublishButton applet={x} />
            <Publications filter={`applet=${String(x.id)}`} column="host" />
          </Space>
        ),
      },
    ],
  },
};

function HostAccounts({ host }: { host: ResourceObject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const perms = useAppStore((s) => s.perms);
  const url = `${APPLET_HOSTS_API}${String(host.id)}/accounts/`;
  const list = useQuery({ queryKey: [url], queryFn: () => http.get<ResourceObject[]>(url) });
  const generate = async () => {
    try {
      const r = await http.put<{ created: number }>(`${APPLET_HOSTS_API}${String(host.id)}/generate-accounts/`);
      message.success(t('applets.host.generated', { count: r.created }));
      await list.refetch();
    } catch (e) {
      message.error(errorMessage(e, t));
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {hasPermission(perms, 'terminal.change_applethost') ? (
        <Button onClick={() => void generate()}>{t('applets.host.generate')}</Button>
      ) : null}
      <Table<ResourceObject>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data ?? []}
        columns={[
          { title: t('applets.col.username'), dataIndex: 'username' },
          {
            title: t('applets.col.privileged'),
            dataIndex: 'privileged',
            render: (v: boolean) => (v ? <Tag color="orange">✓</Tag> : null),
          },
        ]}
      />
    </Space>
  );
}

function HostDeployments({ host }: { host: ResourceObject }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const perms = useAppStore((s) => s.perms);
  const url = `${DEPLOYMENTS_API}?host=${String(host.id)}`;
  const list = useQuery({ queryKey: [url], queryFn: () => http.get<Deployment[]>(url), refetchInterval: 3000 });
  const act = async (call: () => Promise<unknown>) => {
    try {
      await call();
      message.success(t('applets.host.deployed'));
      await list.refetch();
    } catch (e) {
      message.error(errorMessage(e, t));
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('applets.host.noWindows')}</Typography.Text>
      {hasPermission(perms, 'terminal.change_applethost') ? (
        <Space>
          <Button
            type="primary"
            data-testid="host-deploy"
            onClick={() => void act(() => http.post(DEPLOYMENTS_API, { host: host.id }))}
          >
            {t('applets.host.deploy')}
          </Button>
          <Button onClick={() => void act(() => http.post(`${DEPLOYMENTS_API}applets/`, { hosts: [host.id] }))}>
            {t('applets.host.publishAll')}
          </Button>
        </Space>
      ) : null}
      <Table<Deployment>
        rowKey="id"
        size="small"
        data-testid="deployments"
        loading={list.isPending}
        dataSource={list.data ?? []}
        columns={[
          {
            title: t('applets.col.initial'),
            render: (_: unknown, r) =>
              r.initial
                ? t('applets.col.deployment')
                : `${t('applets.col.install')}${r.applet ? `: ${r.applet.name}` : ''}`,
          },
          { title: t('applets.col.status'), render: (_: unknown, r) => statusTag(r.status) },
          { title: t('applets.col.comment'), dataIndex: 'comment' },
          { title: t('applets.col.date'), dataIndex: 'date_created' },
          {
            title: t('applets.col.task'),
            render: (_: unknown, r) =>
              r.task ? (
                <a href={taskLogPath(r.task)} target="_blank" rel="noreferrer">
                  {t('applets.col.task')}
                </a>
              ) : null,
          },
        ]}
      />
    </Space>
  );
}

export const appletHostPages: ResourcePageParts = {
  list: {
    name: 'AppletHostList',
    columns: ['name', 'address', 'protocols', 'load', 'comment', 'actions'],
    headerActions: { hasImport: false, hasExport: false, hasBulkDelete: false },
    rowActions: { hasClone: false },
  },
  detail: {
    tabs: [
      {
        name: 'Detail',
        title: 'applets.tab.detail',
        render: (x, { meta }) => (
          <DetailCard
            title="applets.tab.detail"
            object={x}
            meta={meta}
            fields={[
              'name',
              'address',
              'platform',
              'protocols',
              'load',
              'auto_create_accounts',
              'accounts_create_amount',
              'is_active',
              'comment',
              'date_created',
            ]}
          />
        ),
      },
      { name: 'Accounts', title: 'applets.tab.accounts', render: (x) => <HostAccounts host={x} /> },
      {
        name: 'Applets',
        title: 'applets.tab.hostApplets',
        render: (x) => <Publications filter={`host=${String(x.id)}`} column="applet" />,
      },
      { name: 'Deployments', title: 'applets.tab.deployments', render: (x) => <HostDeployments host={x} /> },
    ],
  },
};

export function AppletHostList() {
  return (
    <ResourceList
      url={appletHostRoute.url}
      paths={resourcePaths(`${APPLETS_PAGE}/hosts`)}
      disableOrgsChange
      {...appletHostPages.list}
    />
  );
}
