import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../resource/errorMessage.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import { readHistory, readSecret, type SecretHistory } from './accountApi.ts';

/** A secret with a copy button (antd's copyable text). */
function Secret({ value, testId }: { value: unknown; testId: string }) {
  if (value === null || value === undefined || value === '') return <span>-</span>;
  return (
    <Typography.Paragraph
      copyable={{ text: String(value) }}
      data-testid={testId}
      style={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', marginBottom: 0, maxHeight: 240, overflow: 'auto' }}
    >
      {String(value)}
    </Typography.Paragraph>
  );
}

/**
 * "View secret": reading the secret makes the server ask for a
 * re-verification (the http client shows that dialog and retries), then name, username, secret,
 * passphrase and the key's fingerprint are shown with copy buttons.
 */
export function ViewSecretDialog({
  account,
  template,
  onClose,
}: {
  account: ResourceObject | null;
  template?: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [data, setData] = useState<ResourceObject | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setData(null);
    setError(null);
    if (!account) return;
    readSecret(account.id, template).then(setData, (e: unknown) => setError(errorMessage(e, t)));
  }, [account, template, t]);
  const spec = (data?.spec_info ?? {}) as { ssh_key_fingerprint?: string };
  return (
    <Modal open={Boolean(account)} title={t('accounts.secret.title')} onCancel={onClose} footer={null} width={640}>
      {error && <Alert type="error" message={error} />}
      {data && (
        <Descriptions column={1} bordered size="small" data-testid="secret-view">
          <Descriptions.Item label={t('accounts.field.name')}>{String(data.name ?? '')}</Descriptions.Item>
          <Descriptions.Item label={t('accounts.field.username')}>{String(data.username ?? '')}</Descriptions.Item>
          <Descriptions.Item label={t('accounts.field.secret')}>
            <Secret value={data.secret} testId="secret-value" />
          </Descriptions.Item>
          {data.passphrase ? (
            <Descriptions.Item label={t('accounts.field.passphrase')}>
              <Secret value={data.passphrase} testId="secret-passphrase" />
            </Descriptions.Item>
          ) : null}
          {spec.ssh_key_fingerprint ? (
            <Descriptions.Item label={t('accounts.field.fingerprint')}>{spec.ssh_key_fingerprint}</Descriptions.Item>
          ) : null}
        </Descriptions>
      )}
    </Modal>
  );
}

/** "Secret history": the former versions, newest first, each readable after re-verification. */
export function SecretHistoryDialog({ account, onClose }: { account: ResourceObject | null; onClose(): void }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<SecretHistory[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setRows(null);
    setError(null);
    if (!account) return;
    readHistory(account.id).then(setRows, (e: unknown) => setError(errorMessage(e, t)));
  }, [account, t]);
  return (
    <Modal open={Boolean(account)} title={t('accounts.history.title')} onCancel={onClose} footer={null} width={760}>
      {error && <Alert type="error" message={error} />}
      <Table<SecretHistory>
        rowKey="id"
        size="small"
        data-testid="secret-history"
        loading={!rows && !error}
        dataSource={rows ?? []}
        pagination={false}
        columns={[
          { title: t('accounts.history.version'), dataIndex: 'version', width: 80 },
          {
            title: t('accounts.field.secret'),
            dataIndex: 'secret',
            render: (v: unknown) => <Secret value={v} testId="history-secret" />,
          },
          { title: t('accounts.history.date'), dataIndex: 'history_date', width: 180 },
          { title: t('accounts.history.user'), dataIndex: 'history_user', width: 180 },
        ]}
      />
      <div style={{ textAlign: 'right', marginTop: 12 }}>
        <Button onClick={onClose}>{t('accounts.action.close')}</Button>
      </div>
    </Modal>
  );
}
