import { Alert, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { formatDate } from '../../resource/values.ts';
import {
  createTempToken,
  expireTempToken,
  fetchTempTokens,
  TEMP_TOKENS_KEY,
  type TempToken,
} from './credentialsApi.ts';
import { useRun } from './useRun.ts';

/**
 * `/profile/temp-password` (menu entry only while AUTH_TEMP_TOKEN is on): temporary passwords
 * that sign in once within five minutes, e.g. for a client that cannot do MFA. Creating one asks
 * for a re-verification.
 */
export function TempPasswordPage() {
  const { t, i18n } = useTranslation();
  const tokens = useQuery({ queryKey: TEMP_TOKENS_KEY, queryFn: fetchTempTokens });
  const { busy, run } = useRun(TEMP_TOKENS_KEY);
  const date = (v: string | null) => (v ? formatDate(v, i18n.language) : '-');
  const columns = [
    { title: t('profile.temp.username'), dataIndex: 'username' },
    {
      title: t('profile.temp.secret'),
      dataIndex: 'secret',
      render: (v: string, row: TempToken) =>
        row.is_valid ? (
          <Typography.Text copyable code>
            {v}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">******</Typography.Text>
        ),
    },
    { title: t('profile.temp.dateExpired'), dataIndex: 'date_expired', render: date },
    { title: t('profile.temp.dateVerified'), dataIndex: 'date_verified', render: date },
    {
      title: t('profile.temp.valid'),
      dataIndex: 'is_valid',
      render: (v: boolean) => (
        <Tag color={v ? 'green' : 'default'}>{v ? t('profile.temp.yes') : t('profile.temp.no')}</Tag>
      ),
    },
    {
      title: t('profile.key.actions'),
      key: 'actions',
      render: (_: unknown, row: TempToken) => (
        <Button size="small" disabled={busy || !row.is_valid} onClick={() => void run(() => expireTempToken(row.id))}>
          {t('profile.temp.expire')}
        </Button>
      ),
    },
  ];
  return (
    <Card data-testid="profile-temp-password" title={t('profile.route.tempPassword')}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('profile.temp.intro')}</Typography.Paragraph>
        <Button type="primary" icon={<PlusOutlined />} loading={busy} onClick={() => void run(createTempToken)}>
          {t('profile.temp.create')}
        </Button>
        {tokens.isError ? (
          <Alert
            type="error"
            showIcon
            title={extractMessage((tokens.error as HttpError).data) || t('session.error.unknown')}
          />
        ) : (
          <Table
            rowKey="id"
            size="middle"
            loading={tokens.isLoading}
            dataSource={tokens.data ?? []}
            columns={columns}
            pagination={false}
          />
        )}
      </Space>
    </Card>
  );
}
