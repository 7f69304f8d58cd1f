import { Select } from 'antd';
import { ACL_ACTIONS, CONNECT_METHODS } from '@gatehouse/contract';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../../resource/formatters.tsx';
import type { FieldSpec } from '../../../../resource/FormField.tsx';
import type { FormGroup } from '../../../../resource/ResourceForm.tsx';
import type { DetailTab } from '../../../../resource/ResourceDetail.tsx';
import type { ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import {
  commandFilterAclRoute,
  commandGroupRoute,
  connectMethodAclRoute,
  loginAclRoute,
  loginAssetAclRoute,
} from './aclRoutes.ts';
import type { ResourceObject } from '../../../../resource/types.ts';
import { rulesSummary, selectorSummary, tagList } from './aclFormatters.tsx';
import { CommandContentField } from './CommandContentField.tsx';
import { CommandTestBox } from './CommandTestBox.tsx';
import { MatchTable } from './MatchTable.tsx';
import { RulesField } from './RulesField.tsx';
import { ASSET_ATTRS, SelectorField, USER_ATTRS } from './SelectorField.tsx';

/**
 * The five kinds of access-control rules as declarations over
 * `resource/`: their form groups, the selector, rules and command editors, and the detail tabs
 * (rule detail, the users and assets a rule picks).
 */
const A = '/api/v1/acls';
const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6].map((id) => ({ id, value: '00:00~00:00' }));
const userLabel = (o: ResourceObject) => `${String(o.name)}(${String(o.username)})`;
const assetLabel = (o: ResourceObject) => `${String(o.name)}(${String(o.address)})`;

const actionValue = (v: Record<string, unknown>) => {
  const a = v.action as unknown;
  return a && typeof a === 'object' ? (a as { value: unknown }).value : a;
};

function fieldsMeta(reviewOn: string[]): Record<string, FieldSpec> {
  return {
    users: { render: () => <SelectorField url="/api/v1/users/users/" attrs={USER_ATTRS} optionLabel={userLabel} /> },
    assets: {
      render: () => <SelectorField url="/api/v1/assets/assets/" attrs={ASSET_ATTRS} optionLabel={assetLabel} />,
    },
    rules: { render: () => <RulesField /> },
    accounts: { widget: 'tags', helpText: 'acls.accounts.help' },
    reviewers: {
      url: '/api/v1/users/users/',
      optionLabel: userLabel,
      hidden: (v) => !reviewOn.includes(String(actionValue(v))),
    },
    // What a rule can and cannot catch, and how to make an allow list.
    command_groups: { url: `${A}/command-groups/`, helpText: 'acls.command.filterHelp' },
    connect_methods: {
      render: () => <Select mode="multiple" options={CONNECT_METHODS.map((m) => ({ value: m, label: m }))} />,
    },
  };
}

const formatters: Record<string, CellFormatter> = {
  users: selectorSummary,
  assets: selectorSummary,
  rules: rulesSummary,
  accounts: tagList,
  connect_methods: tagList,
};

function detailTabs(base: string, fields: string[], withAssets: boolean): DetailTab[] {
  return [
    {
      name: 'AclDetail',
      title: 'acls.tab.Detail',
      render: (acl, { meta }) => (
        <DetailCard title="acls.tab.Detail" object={acl} meta={meta} fields={fields} formatters={formatters} />
      ),
    },
    {
      name: 'AclUsers',
      title: 'acls.tab.Users',
      render: (acl) => <MatchTable url={`${base}${acl.id}/users/`} kind="users" />,
    },
    ...(withAssets
      ? [
          {
            name: 'AclAssets',
            title: 'acls.tab.Assets',
            render: (acl: ResourceObject) => <MatchTable url={`${base}${acl.id}/assets/`} kind="assets" />,
          },
        ]
      : []),
  ];
}

const groups = (...middle: FormGroup[]): FormGroup[] => [
  { title: 'acls.group.Basic', fields: ['name', 'priority'] },
  ...middle,
  { title: 'acls.group.Other', fields: ['is_active', 'comment'] },
];
const usersGroup = { title: 'acls.group.Users', fields: ['users'] };
const assetsGroup = { title: 'acls.group.Assets', fields: ['assets'] };
const accountsGroup = { title: 'acls.group.Accounts', fields: ['accounts'] };
const rulesGroup = { title: 'acls.group.Rules', fields: ['rules'] };
const actionGroup = { title: 'acls.group.Action', fields: ['action', 'reviewers'] };
/** New rules start with everyone, every asset and account, any address, the whole week (JSON text, as the form holds it). */
const initial = {
  users: JSON.stringify({ type: 'all' }),
  assets: JSON.stringify({ type: 'all' }),
  accounts: ['@ALL'],
  rules: JSON.stringify({ ip_group: ['*'], time_period: ALL_WEEK }),
};
const listColumns = (cols: string[]) => ({
  columnsShow: { default: [...cols, 'actions'], min: ['name', 'actions'] },
  columnsMeta: { users: { formatter: selectorSummary }, assets: { formatter: selectorSummary } },
});

export const loginAclPages: ResourcePagesConfig = {
  ...loginAclRoute,
  list: {
    name: 'LoginAclList',
    columnsExclude: ['rules', 'users'],
    ...listColumns(['name', 'priority', 'is_active', 'action', 'comment']),
  },
  form: {
    groups: groups(usersGroup, rulesGroup, actionGroup),
    fieldsMeta: fieldsMeta(['review']),
    initial,
  },
  detail: {
    tabs: detailTabs(
      `${A}/login-acls/`,
      [
        'name',
        'priority',
        'action',
        'reviewers',
        'users',
        'rules',
        'is_active',
        'comment',
        'created_by',
        'date_created',
        'date_updated',
      ],
      false,
    ),
  },
};

export const loginAssetAclPages: ResourcePagesConfig = {
  ...loginAssetAclRoute,
  list: {
    name: 'LoginAssetAclList',
    columnsExclude: ['users', 'assets', 'accounts', 'rules'],
    ...listColumns(['name', 'priority', 'is_active', 'action', 'comment']),
  },
  form: {
    groups: groups(usersGroup, assetsGroup, accountsGroup, rulesGroup, actionGroup),
    fieldsMeta: fieldsMeta(['review']),
    initial,
  },
  detail: {
    tabs: detailTabs(
      `${A}/login-asset-acls/`,
      [
        'name',
        'priority',
        'action',
        'reviewers',
        'users',
        'assets',
        'accounts',
        'rules',
        'is_active',
        'comment',
        'created_by',
        'date_created',
        'date_updated',
      ],
      true,
    ),
  },
};

export const commandFilterAclPages: ResourcePagesConfig = {
  ...commandFilterAclRoute,
  list: {
    name: 'CommandFilterAclList',
    columnsExclude: ['users', 'assets', 'accounts'],
    ...listColumns(['name', 'command_groups', 'priority', 'is_active', 'action', 'comment']),
  },
  form: {
    groups: groups(
      usersGroup,
      assetsGroup,
      accountsGroup,
      { title: 'acls.group.CommandGroups', fields: ['command_groups'] },
      actionGroup,
    ),
    fieldsMeta: fieldsMeta(['review', 'warning']),
    initial,
  },
  detail: {
    tabs: detailTabs(
      `${A}/command-filter-acls/`,
      [
        'name',
        'priority',
        'action',
        'reviewers',
        'users',
        'assets',
        'accounts',
        'command_groups',
        'is_active',
        'comment',
        'created_by',
        'date_created',
        'date_updated',
      ],
      true,
    ),
  },
};

export const commandGroupPages: ResourcePagesConfig = {
  ...commandGroupRoute,
  list: {
    name: 'CommandGroupList',
    columnsShow: { default: ['name', 'type', 'content', 'comment', 'actions'], min: ['name', 'actions'] },
  },
  form: {
    groups: [{ title: 'acls.group.Basic', fields: ['name', 'type', 'content', 'ignore_case', 'comment'] }],
    fieldsMeta: {
      type: { widget: 'radio' },
      content: { render: () => <CommandContentField />, helpText: 'acls.command.groupHelp' },
    },
  },
  detail: {
    tabs: [
      {
        name: 'CommandGroupDetail',
        title: 'acls.tab.Detail',
        render: (group, { meta }) => (
          <div>
            <DetailCard
              title="acls.tab.Detail"
              object={group}
              meta={meta}
              fields={['name', 'type', 'content', 'ignore_case', 'pattern', 'comment', 'created_by', 'date_created']}
            />
            <div style={{ marginTop: 16 }}>
              <CommandTestBox group={{ type: group.type, content: group.content, ignore_case: group.ignore_case }} />
            </div>
          </div>
        ),
      },
    ],
  },
};

export const connectMethodAclPages: ResourcePagesConfig = {
  ...connectMethodAclRoute,
  list: {
    name: 'ConnectMethodAclList',
    columnsExclude: ['users', 'reviewers'],
    ...listColumns(['name', 'priority', 'is_active', 'connect_methods', 'comment']),
  },
  form: {
    groups: groups(
      usersGroup,
      { title: 'acls.group.ConnectMethods', fields: ['connect_methods'] },
      { title: 'acls.group.Action', fields: ['action'] },
    ),
    fieldsMeta: fieldsMeta([]),
    initial,
  },
  detail: {
    tabs: detailTabs(
      `${A}/connect-method-acls/`,
      [
        'name',
        'priority',
        'action',
        'users',
        'connect_methods',
        'is_active',
        'comment',
        'created_by',
        'date_created',
        'date_updated',
      ],
      false,
    ),
  },
};

/** The actions each kind offers, for tests and menus (the server's OPTIONS gives the same). */
export { ACL_ACTIONS };
