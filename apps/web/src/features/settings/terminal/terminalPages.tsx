import { App, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  COMMAND_STORAGE_META,
  COMMAND_STORAGE_TYPES,
  REPLAY_STORAGE_META,
  REPLAY_STORAGE_TYPES,
  type StorageMetaField,
} from '@gatehouse/contract';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import type { ResourcePageParts } from '../../../resource/resourceRoute.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { StorageMetaInput } from './StorageMetaInput.tsx';
import {
  TERMINAL_SETTINGS,
  commandStorageRoute,
  endpointRoute,
  endpointRuleRoute,
  replayStorageRoute,
} from './terminalConfigs.ts';

/** The page parts of replay storages, endpoints and endpoint rules, and their lists for the terminal tabs. */
const isLocal = (row: ResourceObject) => (row.type as { value?: string } | undefined)?.value === 'server';
const isDefault = (row: ResourceObject) => row.is_default === true;
const DEFAULT_ENDPOINT = '00000000-0000-0000-0000-000000000001';

const detail = (title: string) => ({
  tabs: [
    {
      name: 'Detail',
      title,
      render: (x: ResourceObject, { meta }: { meta: Parameters<typeof DetailCard>[0]['meta'] }) => (
        <DetailCard title={title} object={x} meta={meta} />
      ),
    },
  ],
});

/** A storage resource's page parts: its type's settings drawn from the contract's declaration. */
function storagePages(
  name: string,
  types: readonly string[],
  declaration: Readonly<Record<string, readonly StorageMetaField[]>>,
  tab: string,
): ResourcePageParts {
  return {
    list: {
      name,
      columns: ['name', 'type', 'is_default', 'comment', 'actions'],
      headerActions: { hasImport: false, hasExport: false, hasBulkDelete: false },
      rowActions: { hasClone: false, canUpdate: (r) => !isLocal(r), canDelete: (r) => !isLocal(r) && !isDefault(r) },
    },
    form: {
      groups: [
        { title: 'settingsTerminal.group.basic', fields: ['name', 'type'] },
        { title: 'settingsTerminal.group.meta', fields: ['meta'] },
        { title: 'settingsTerminal.group.other', fields: ['is_default', 'comment'] },
      ],
      fieldsMeta: {
        type: {
          widget: 'select',
          choices: types.filter((v) => v !== 'server').map((v) => ({ value: v, label: v.toUpperCase() })),
        },
        meta: { render: () => <StorageMetaInput declaration={declaration} /> },
      },
      initial: { type: types.find((v) => v !== 'server'), meta: '{}' },
      successRoute: () => `${TERMINAL_SETTINGS}?activeTab=${tab}`,
    },
    detail: detail('settingsTerminal.group.basic'),
  };
}

export const replayStoragePages = storagePages(
  'ReplayStorageList',
  REPLAY_STORAGE_TYPES,
  REPLAY_STORAGE_META,
  'replay',
);
export const commandStoragePages = storagePages(
  'CommandStorageList',
  COMMAND_STORAGE_TYPES,
  COMMAND_STORAGE_META,
  'command',
);

export const endpointPages: ResourcePageParts = {
  list: {
    name: 'EndpointList',
    columns: [
      'name',
      'host',
      'https_port',
      'http_port',
      'ssh_port',
      'rdp_port',
      'mysql_port',
      'postgresql_port',
      'actions',
    ],
    headerActions: { hasImport: false, hasBulkDelete: false },
    rowActions: { hasClone: false, canDelete: (r) => r.id !== DEFAULT_ENDPOINT },
  },
  form: {
    groups: [
      { title: 'settingsTerminal.group.basic', fields: ['name', 'host'] },
      {
        title: 'settingsTerminal.group.ports',
        fields: [
          'https_port',
          'http_port',
          'ssh_port',
          'rdp_port',
          'mysql_port',
          'mariadb_port',
          'postgresql_port',
          'redis_port',
        ],
      },
      { title: 'settingsTerminal.group.other', fields: ['comment'] },
    ],
    fieldsMeta: { host: { helpText: 'settingsTerminal.endpoint.hostHelp' } },
    successRoute: () => `${TERMINAL_SETTINGS}?activeTab=endpoints`,
  },
  detail: detail('settingsTerminal.group.basic'),
};

export const endpointRulePages: ResourcePageParts = {
  list: {
    name: 'EndpointRuleList',
    columns: ['name', 'ip_group', 'priority', 'endpoint', 'is_active', 'actions'],
    headerActions: { hasImport: false, hasBulkDelete: false },
    rowActions: { hasClone: false },
  },
  form: {
    groups: [
      { title: 'settingsTerminal.group.basic', fields: ['name', 'priority'] },
      { title: 'settingsTerminal.group.rule', fields: ['ip_group', 'endpoint'] },
      { title: 'settingsTerminal.group.other', fields: ['is_active', 'comment'] },
    ],
    fieldsMeta: {
      ip_group: { helpText: 'settingsTerminal.rule.ipGroupHelp' },
      endpoint: { url: '/api/v1/terminal/endpoints/?fields_size=mini' },
      priority: { helpText: 'settingsTerminal.rule.priorityHelp' },
    },
    initial: { ip_group: ['*'], priority: 50, is_active: true },
    successRoute: () => `${TERMINAL_SETTINGS}?activeTab=endpointRules`,
  },
  detail: detail('settingsTerminal.group.basic'),
};

/** A storage list with its row tools: test the connection, make one the default. */
function StorageList({ url, path, pages }: { url: string; path: string; pages: ResourcePageParts }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ResourceList
      url={url}
      paths={resourcePaths(`${TERMINAL_SETTINGS}/${path}`)}
      {...pages.list}
      columnsMeta={{
        is_default: {
          formatter: ({ value }) => (value ? <Tag color="green">{t('settingsTerminal.storage.default')}</Tag> : null),
        },
      }}
      rowActions={{
        ...pages.list.rowActions,
        extra: [
          {
            name: 'test',
            title: 'settingsTerminal.storage.test',
            order: 1,
            onClick: (row) => {
              void http
                .get<{ is_valid: boolean; msg: string }>(`${url}${row.id}/test-connective/`)
                .then((r) => (r.is_valid ? message.success(r.msg) : message.error(r.msg)))
                .catch((e: unknown) => message.error(errorMessage(e, t)));
            },
          },
          {
            name: 'setDefault',
            title: 'settingsTerminal.storage.setDefault',
            order: 2,
            has: (row) => !isDefault(row),
            onClick: (row, reload) => {
              void http
                .patch(`${url}${row.id}/`, { is_default: true })
                .then(() => (message.success(t('settingsTerminal.storage.defaultSet')), reload()))
                .catch((e: unknown) => message.error(errorMessage(e, t)));
            },
          },
        ],
      }}
    />
  );
}

export const ReplayStorageList = () => (
  <StorageList url={replayStorageRoute.url} path="replay-storage" pages={replayStoragePages} />
);
export const CommandStorageList = () => (
  <StorageList url={commandStorageRoute.url} path="command-storage" pages={commandStoragePages} />
);

export function EndpointList() {
  return (
    <ResourceList
      url={endpointRoute.url}
      paths={resourcePaths(`${TERMINAL_SETTINGS}/endpoint`)}
      {...endpointPages.list}
    />
  );
}

export function EndpointRuleList() {
  return (
    <ResourceList
      url={endpointRuleRoute.url}
      paths={resourcePaths(`${TERMINAL_SETTINGS}/endpoint-rule`)}
      {...endpointRulePages.list}
    />
  );
}
