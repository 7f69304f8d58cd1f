import { useState } from 'react';
import { Alert, App, Button, Card, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { formatDate } from '../../resource/values.ts';
import {
  ACCESS_KEYS_KEY,
  createAccessKey,
  deleteAccessKey,
  fetchAccessKeys,
  setAccessKeyActive,
  type AccessKey,
} from './credentialsApi.ts';

/**
 * `/profile/key`: the user's API keys. A new key's secret is shown once, in a dialog; the list
 * never has it. Creating, switching and deleting ask for a re-verification (the HTTP client opens
 * the dialog when the server asks).
 */
export function ApiKeyPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ACCESS_KEYS_KEY, queryFn: fetchAccessKeys });
  const [created, setCreated] = useState<AccessKey & { secret: string }>();
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
      await queryClient.invalidateQueries({ queryKey: ACCESS_KEYS_KEY });
    } catch (e) {
      void message.error(e instanceof HttpError ? extractMessage(e.data) || t('session.error.unknown') : String(e));
    } finally {
      setBusy(false);
    }
  };

  const columns = [
    {
      title: t('profile.key.id'),
      dataIndex: 'id',
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    { title: t('profile.key.secret'), key: 'secret', render: () => '******' },
    {
      title: t('profile.key.active'),
      dataIndex: 'is_active',
      render: (v: boolean, row: AccessKey) => (
        <Switch
          checked={v}
          disabled={busy}
          aria-label={t('profile.key.active')}
          onChange={(on) => void run(async () => void (await setAccessKeyActive(row.id, on)))}
        />
      ),
    },
    {
      title: t('profile.key.dateCreated'),
      dataIndex: 'date_created',
      render: (v: string) => formatDate(v, i18n.language),
    },
    {
      title: t('profile.key.lastUsed'),
      dataIndex: 'date_last_used',
      render: (v: string | null) => (v ? formatDate(v, i18n.language) : '-'),
    },
    {
      title: t('profile.key.actions'),
      key: 'actions',
      render: (_: unknown, row: AccessKey) => (
        <Popconfirm title={t('profile.key.deleteConfirm')} onConfirm={() => run(() => deleteAccessKey(row.id))}>
          <Button danger size="small" disabled={busy}>
            {t('profile.key.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card data-testid="profile-api-keys" title={t('profile.route.key')}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('profile.key.intro')}</Typography.Paragraph>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          loading={busy}
          onClick={() => void run(async () => setCreated(await createAccessKey()))}
        >
          {t('profile.key.create')}
        </Button>
        {keys.isError ? (
          <Alert
            type="error"
            showIcon
            title={extractMessage((keys.error as HttpError).data) || t('session.error.unknown')}
          />
        ) : (
          <Table
            rowKey="id"
            size="middle"
            loading={keys.isLoading}
            dataSource={keys.data ?? []}
            columns={columns}
            pagination={false}
          />
        )}
      </Space>
      <Modal
        open={Boolean(created)}
        title={t('profile.key.createdTitle')}
        onCancel={() => setCreated(undefined)}
        footer={<Button onClick={() => setCreated(undefined)}>{t('profile.key.close')}</Button>}
      >
        <Alert type="warning" showIcon title={t('profile.key.onceWarning')} style={{ marginBottom: 16 }} />
        <p>
          {t('profile.key.id')}:{' '}
          <Typography.Text copyable data-testid="new-key-id">
            {created?.id}
          </Typography.Text>
        </p>
        <p>
          {t('profile.key.secret')}:{' '}
          <Typography.Text copyable data-testid="new-key-secret">
            {created?.secret}
          </Typography.Text>
        </p>
      </Modal>
    </Card>
  );
}
