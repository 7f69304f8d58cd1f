import { useState } from 'react';
import { Alert, Button, Card, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { formatDate } from '../../resource/values.ts';
import {
  deletePasskey,
  fetchPasskeys,
  PASSKEYS_KEY,
  registerPasskey,
  setPasskeyActive,
  type Passkey,
} from './credentialsApi.ts';
import { useRun } from './useRun.ts';

/**
 * `/profile/passkeys` (menu entry only while AUTH_PASSKEY is on): the user's passkeys, with the
 * platform that registered each and its last use. Adding, switching and deleting ask for a
 * re-verification.
 */
export function PasskeysPage() {
  const { t, i18n } = useTranslation();
  const passkeys = useQuery({ queryKey: PASSKEYS_KEY, queryFn: fetchPasskeys });
  const { busy, run } = useRun(PASSKEYS_KEY);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const date = (v: string | null) => (v ? formatDate(v, i18n.language) : '-');
  const add = () =>
    run(async () => {
      await registerPasskey(name.trim());
      setNaming(false);
      setName('');
    });
  const columns = [
    { title: t('profile.passkey.name'), dataIndex: 'name' },
    {
      title: t('profile.key.active'),
      dataIndex: 'is_active',
      render: (v: boolean, row: Passkey) => (
        <Switch
          checked={v}
          disabled={busy}
          aria-label={t('profile.key.active')}
          onChange={(on) => void run(() => setPasskeyActive(row.id, on))}
        />
      ),
    },
    { title: t('profile.passkey.platform'), dataIndex: 'platform' },
    { title: t('profile.key.lastUsed'), dataIndex: 'date_last_used', render: date },
    { title: t('profile.key.dateCreated'), dataIndex: 'date_created', render: date },
    {
      title: t('profile.key.actions'),
      key: 'actions',
      render: (_: unknown, row: Passkey) => (
        <Popconfirm title={t('profile.passkey.deleteConfirm')} onConfirm={() => run(() => deletePasskey(row.id))}>
          <Button danger size="small" disabled={busy}>
            {t('profile.key.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Card data-testid="profile-passkeys" title={t('profile.route.passkeys')}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t('profile.passkey.intro')}</Typography.Paragraph>
        <Button type="primary" icon={<PlusOutlined />} loading={busy} onClick={() => setNaming(true)}>
          {t('profile.passkey.add')}
        </Button>
        {passkeys.isError ? (
          <Alert
            type="error"
            showIcon
            title={extractMessage((passkeys.error as HttpError).data) || t('session.error.unknown')}
          />
        ) : (
          <Table
            rowKey="id"
            size="middle"
            loading={passkeys.isLoading}
            dataSource={passkeys.data ?? []}
            columns={columns}
            pagination={false}
          />
        )}
      </Space>
      <Modal
        open={naming}
        title={t('profile.passkey.add')}
        okText={t('profile.passkey.register')}
        okButtonProps={{ disabled: !name.trim(), loading: busy }}
        onOk={() => void add()}
        onCancel={() => setNaming(false)}
      >
        <Input
          aria-label={t('profile.passkey.name')}
          placeholder={t('profile.passkey.namePlaceholder')}
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
        />
      </Modal>
    </Card>
  );
}
