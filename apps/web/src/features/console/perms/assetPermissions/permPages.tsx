import dayjs from 'dayjs';
import { Col, Row, Switch } from 'antd';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import type { FieldSpec } from '../../../../resource/FormField.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import type { ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import { NodeTreeList } from '../../assets/nodeTree/NodeTreeList.tsx';
import { AccountsField } from './AccountsField.tsx';
import { AccountsTab } from './AccountsTab.tsx';
import { ActionsField } from './ActionsField.tsx';
import { PERM_ACTIONS, SPEC } from './permActions.ts';
import { accountsCell, actionsCell, amountLink } from './permFormatters.tsx';
import { assetPermissionRoute } from './permRoute.ts';
import { RelationsTab } from './RelationsTab.tsx';

/**
 * Asset permissions as a declaration over `resource/`: the list in the node tree table with its
 * amount columns, the form's groups with the accounts and actions editors, and the detail tabs
 * (basic, users and groups, assets and nodes, accounts, activity).
 */
const userLabel = (o: ResourceObject) => `${String(o.name)}(${String(o.username)})`;
const assetLabel = (o: ResourceObject) => `${String(o.name)}(${String(o.address)})`;
const nodeLabel = (o: ResourceObject) => String(o.full_value ?? o.value ?? o.name);
const SEVENTY_YEARS_DAYS = 25550;

const fieldsMeta: Record<string, FieldSpec> = {
  users: { url: '/api/v1/users/users/', optionLabel: userLabel },
  user_groups: { url: '/api/v1/users/groups/' },
  assets: { url: '/api/v1/assets/assets/', optionLabel: assetLabel },
  nodes: { url: '/api/v1/assets/nodes/', optionLabel: nodeLabel },
  accounts: { render: () => <AccountsField /> },
  actions: { render: () => <ActionsField /> },
};

const formatters = { actions: actionsCell, accounts: accountsCell };

function BasicTab({
  perm,
  meta,
  reload,
}: {
  perm: ResourceObject;
  meta: Parameters<typeof DetailCard>[0]['meta'];
  reload(): void;
}) {
  const canChange = hasPermission(
    useAppStore((s) => s.perms),
    'perms.change_assetpermission',
  );
  return (
    <Row gutter={16}>
      <Col xs={24} lg={15}>
        <DetailCard
          title="perms.tab.Basic"
          object={perm}
          meta={meta}
          fields={[
            'name',
            'users_amount',
            'user_groups_amount',
            'assets_amount',
            'nodes_amount',
            'accounts',
            'actions',
            'is_active',
            'is_valid',
            'is_expired',
            'date_start',
            'date_expired',
            'from_ticket',
            'created_by',
            'date_created',
            'comment',
          ]}
          formatters={{
            ...formatters,
            users_amount: ({ row }) => (row.users as unknown[] | undefined)?.length ?? 0,
            user_groups_amount: ({ row }) => (row.user_groups as unknown[] | undefined)?.length ?? 0,
            assets_amount: ({ row }) => (row.assets as unknown[] | undefined)?.length ?? 0,
            nodes_amount: ({ row }) => (row.nodes as unknown[] | undefined)?.length ?? 0,
            is_active: ({ row }) => (
              <Switch
                checked={Boolean(row.is_active)}
                disabled={!canChange}
                data-testid="perm-active-switch"
                onChange={async (is_active) => {
                  await http.patch(`${assetPermissionRoute.url}${row.id}/`, { is_active });
                  reload();
                }}
              />
            ),
          }}
          labels={{
            users_amount: 'perms.field.usersAmount',
            user_groups_amount: 'perms.field.userGroupsAmount',
            assets_amount: 'perms.field.assetsAmount',
            nodes_amount: 'perms.field.nodesAmount',
          }}
        />
      </Col>
    </Row>
  );
}

export const assetPermissionPages: ResourcePagesConfig = {
  ...assetPermissionRoute,
  listPage: (cfg) => (
    <NodeTreeList testId="asset-permission-list-page" list={{ url: cfg.url, urlQuery: true, ...cfg.list }} />
  ),
  list: {
    name: 'AssetPermissionList',
    columnsShow: {
      default: ['name', 'users', 'user_groups', 'assets', 'nodes', 'accounts', 'action', 'is_valid', 'actions'],
      min: ['name', 'actions'],
    },
    columnsExtra: ['action'],
    columnsMeta: {
      users: { formatter: amountLink('UsersAndGroups'), width: 90 },
      user_groups: { formatter: amountLink('UsersAndGroups'), width: 90 },
      assets: { formatter: amountLink('AssetsAndNodes'), width: 90 },
      nodes: { formatter: amountLink('AssetsAndNodes'), width: 90 },
      accounts: { formatter: accountsCell },
      action: { formatter: actionsCell, label: 'perms.field.action' },
    },
    headerActions: {
      bulkUpdateFields: [
        'users',
        'user_groups',
        'assets',
        'nodes',
        'accounts',
        'actions',
        'is_active',
        'date_start',
        'date_expired',
      ],
    },
    fieldsMeta,
  },
  form: {
    groups: [
      { title: 'perms.group.Basic', fields: ['name'] },
      { title: 'perms.group.User', fields: ['users', 'user_groups'] },
      { title: 'perms.group.Asset', fields: ['assets', 'nodes'] },
      { title: 'perms.group.Account', fields: ['accounts'] },
      { title: 'perms.group.Action', fields: ['actions'] },
      { title: 'perms.group.Other', fields: ['is_active', 'date_start', 'date_expired', 'comment'] },
    ],
    fieldsMeta,
    initial: (query) => ({
      is_active: true,
      accounts: ['@ALL'],
      actions: [...PERM_ACTIONS],
      date_start: dayjs(),
      date_expired: dayjs().add(SEVENTY_YEARS_DAYS, 'day'),
      ...(query.get('node_id') ? { nodes: [query.get('node_id')] } : {}),
      ...(query.get('asset_id') ? { assets: [query.get('asset_id')] } : {}),
    }),
    cleanValues: (v) => ({
      ...v,
      accounts: Array.isArray(v.accounts) ? v.accounts.filter((a) => a !== SPEC) : v.accounts,
    }),
    successRoute: (saved) => `/console/perms/asset-permissions/${saved.id}`,
  },
  detail: {
    tabs: [
      {
        name: 'Basic',
        title: 'perms.tab.Basic',
        render: (perm, { meta, reload }) => <BasicTab perm={perm} meta={meta} reload={reload} />,
      },
      {
        name: 'UsersAndGroups',
        title: 'perms.tab.UsersAndGroups',
        render: (perm, { reload }) => (
          <RelationsTab
            perm={perm}
            reload={reload}
            list={{
              path: 'users/all/',
              name: 'AssetPermissionUsers',
              columns: ['name', 'username'],
              labels: { name: 'perms.field.name', username: 'perms.field.username' },
            }}
            relations={[
              { name: 'users', title: 'perms.card.users', options: '/api/v1/users/users/', optionLabel: userLabel },
              { name: 'user_groups', title: 'perms.card.userGroups', options: '/api/v1/users/groups/' },
            ]}
          />
        ),
      },
      {
        name: 'AssetsAndNodes',
        title: 'perms.tab.AssetsAndNodes',
        render: (perm, { reload }) => (
          <RelationsTab
            perm={perm}
            reload={reload}
            list={{
              path: 'assets/all/',
              name: 'AssetPermissionAssets',
              columns: ['name', 'address'],
              labels: { name: 'perms.field.name', address: 'perms.field.address' },
            }}
            relations={[
              {
                name: 'assets',
                title: 'perms.card.assets',
                options: '/api/v1/assets/assets/',
                optionLabel: assetLabel,
              },
              { name: 'nodes', title: 'perms.card.nodes', options: '/api/v1/assets/nodes/', optionLabel: nodeLabel },
            ]}
          />
        ),
      },
      {
        name: 'Accounts',
        title: 'perms.tab.Accounts',
        render: (perm, { reload }) => <AccountsTab perm={perm} reload={reload} />,
      },
    ],
  },
};
