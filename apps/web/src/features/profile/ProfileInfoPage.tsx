import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert, Card, Col, Descriptions, Row, Space, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { fetchProfile, PROFILE_KEY } from './profileApi.ts';
import { ImBindings } from './ImBindings.tsx';

const roles = (list: { id: string; display_name?: string; name: string }[]) =>
  list.length ? (
    <Space size={[4, 4]} wrap>
      {list.map((r) => (
        <Tag key={r.id}>{r.display_name ?? r.name}</Tag>
      ))}
    </Space>
  ) : (
    '-'
  );

/** `/profile/info`: the user card and the quick actions. */
export function ProfileInfoPage() {
  const { t } = useTranslation();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: fetchProfile });
  if (profile.isLoading) return <Spin />;
  if (profile.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={extractMessage((profile.error as HttpError).data) || t('session.error.unknown')}
      />
    );
  const p = profile.data!;
  const items: { key: string; label: string; children: ReactNode }[] = [
    { key: 'name', label: t('profile.field.name'), children: p.name },
    { key: 'username', label: t('profile.field.username'), children: p.username },
    { key: 'email', label: t('profile.field.email'), children: p.email || '-' },
    {
      key: 'phone',
      label: t('profile.field.phone'),
      children: p.phone?.phone ? `${p.phone.code ?? ''}${p.phone.phone}` : '-',
    },
    { key: 'wechat', label: t('profile.field.wechat'), children: p.wechat || '-' },
    { key: 'system_roles', label: t('profile.field.systemRoles'), children: roles(p.system_roles) },
    { key: 'org_roles', label: t('profile.field.orgRoles'), children: roles(p.org_roles) },
    { key: 'mfa_level', label: t('profile.field.mfaLevel'), children: p.mfa_level?.label ?? '-' },
    {
      key: 'otp',
      label: t('profile.field.otp'),
      children: (
        <Tag color={p.is_otp_secret_key_bound ? 'success' : 'default'} data-testid="info-otp">
          {p.is_otp_secret_key_bound ? t('profile.otp.isBound') : t('profile.otp.notBound')}
        </Tag>
      ),
    },
    { key: 'source', label: t('profile.field.source'), children: p.source?.label ?? '-' },
    { key: 'date_joined', label: t('profile.field.dateJoined'), children: p.date_joined },
    { key: 'last_login', label: t('profile.field.lastLogin'), children: p.last_login ?? '-' },
    {
      key: 'date_password_last_updated',
      label: t('profile.field.passwordUpdated'),
      children: p.date_password_last_updated ?? '-',
    },
    { key: 'date_expired', label: t('profile.field.dateExpired'), children: p.date_expired },
    { key: 'comment', label: t('profile.field.comment'), children: p.comment || '-' },
  ];
  return (
    <Row gutter={16} data-testid="profile-info">
      <Col xs={24} lg={16}>
        <Card title={t('profile.info.title')}>
          <Descriptions column={1} bordered size="small" items={items} styles={{ label: { width: 200 } }} />
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card title={t('profile.info.actions')}>
          <Space direction="vertical">
            <Link to="/profile/setting?activeTab=mfa">
              {p.is_otp_secret_key_bound ? t('profile.info.manageMfa') : t('profile.info.setMfa')}
            </Link>
            {p.source?.value === 'local' && (
              <Link to="/profile/setting?activeTab=password">{t('profile.info.changePassword')}</Link>
            )}
            <Link to="/profile/setting?activeTab=profile">{t('profile.info.editProfile')}</Link>
            <ImBindings profile={p} />
          </Space>
        </Card>
      </Col>
    </Row>
  );
}
