import { Avatar, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../lib/appStore.ts';
import { formatDate } from '../../resource/values.ts';

/** The user card of the workbench home: who is signed in, their roles and sign-in dates. */
export function UserCard() {
  const { t, i18n } = useTranslation();
  const profile = useAppStore((s) => s.profile);
  if (!profile) return null;
  const roles = [...profile.system_roles, ...profile.org_roles];
  return (
    <Card title={t('workbench.home.userCard')} data-testid="workbench-user-card">
      <Space align="center" size="middle" style={{ marginBottom: 16 }}>
        <Avatar size={56} icon={<UserOutlined />} />
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {profile.name}
          </Typography.Title>
          <Typography.Text type="secondary">{profile.username}</Typography.Text>
        </div>
      </Space>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'email', label: t('workbench.field.email'), children: profile.email || '-' },
          {
            key: 'roles',
            label: t('workbench.field.roles'),
            children: roles.length ? (
              <Space size={[4, 4]} wrap>
                {roles.map((r) => (
                  <Tag key={r.id}>{r.display_name ?? r.name}</Tag>
                ))}
              </Space>
            ) : (
              '-'
            ),
          },
          {
            key: 'last_login',
            label: t('workbench.field.lastLogin'),
            children: formatDate(profile.last_login, i18n.language),
          },
          {
            key: 'date_expired',
            label: t('workbench.field.dateExpired'),
            children: formatDate(profile.date_expired, i18n.language),
          },
        ]}
      />
    </Card>
  );
}
