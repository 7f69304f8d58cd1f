import { Space } from 'antd';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../resource/formatters.tsx';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import { userRoute } from './userRoute.tsx';
import { userFieldSpecs } from './fields.ts';
import { InviteUsers } from './InviteUsers.tsx';
import { UserRolesCard } from './roles/UserRolesCard.tsx';
import { UserImUnbind } from './UserImUnbind.tsx';
import { userGrantedAssetsTab } from '../perms/grants/grantTabs.tsx';

const phone: CellFormatter = ({ value }) => {
  const p = value as { code?: string; phone?: string } | null;
  return p?.phone ? `${p.code ?? ''} ${p.phone}`.trim() : typeof value === 'string' && value ? value : '-';
};

/** Users: `/console/users/users/` over `/api/v1/users/users/`. */
export const userPages: ResourcePagesConfig = {
  ...userRoute,
  list: {
    name: 'UserList',
    columnsExclude: [
      'password',
      'password_strategy',
      'public_key',
      'is_otp_secret_key_bound',
      'mfa_enabled',
      'is_superuser',
      'mfa_force_enabled',
      'is_service_account',
      'avatar_url',
    ],
    columnsShow: {
      default: ['name', 'username', 'email', 'groups', 'system_roles', 'org_roles', 'source', 'is_valid'],
      min: ['name', 'username', 'actions'],
    },
    columnsMeta: {
      org_roles: { has: (ctx) => ctx.hasValidLicense && !ctx.isRootOrg },
      phone: { formatter: phone },
    },
    headerActions: {
      bulkUpdateFields: ['groups', 'date_expired', 'comment'],
      extra: [{ key: 'invite', render: (reload) => <InviteUsers onDone={reload} /> }],
    },
    rowActions: { canUpdate: (row, ctx) => !row.is_superuser || Boolean(ctx.profile?.is_superuser) },
    fieldsMeta: userFieldSpecs,
  },
  form: {
    groups: [
      { title: 'users.group.Account', fields: ['name', 'username', 'email', 'groups'] },
      {
        title: 'users.group.Authentication',
        fields: ['password_strategy', 'password', 'need_update_password', 'mfa_level', 'source'],
      },
      { title: 'users.group.Secure', fields: ['system_roles', 'org_roles', 'is_active', 'date_expired'] },
      { title: 'users.group.Other', fields: ['phone', 'wechat', 'comment'] },
    ],
    fieldsMeta: userFieldSpecs,
  },
  detail: {
    tabs: [
      {
        name: 'UserInfo',
        title: 'users.tab.UserInfo',
        render: (user, { meta, reload }) => (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <DetailCard
              title="users.card.basic"
              object={user}
              meta={meta}
              fields={[
                'id',
                'name',
                'username',
                'email',
                'phone',
                'wecom_id',
                'dingtalk_id',
                'feishu_id',
                'groups',
                'system_roles',
                'org_roles',
                'mfa_level',
                'source',
                'is_active',
                'is_valid',
                'created_by',
                'date_joined',
                'date_expired',
                'date_password_last_updated',
                'last_login',
                'comment',
              ]}
              formatters={{ phone }}
            />
            <UserImUnbind user={user} reload={reload} />
            <UserRolesCard key={JSON.stringify([user.system_roles, user.org_roles])} user={user} reload={reload} />
          </Space>
        ),
      },
      userGrantedAssetsTab,
    ],
  },
};
