import { useState } from 'react';
import { App, Button, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../resource/errorMessage.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import { updateAccount } from './accountApi.ts';

const typeOf = (v: unknown) =>
  String(v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : (v ?? 'password'));

/**
 * The secret edited in place in an account row: saved through the account's PATCH with its
 * name, the secret encrypted for transport like every other secret input (accountApi.ts).
 */
export function InlineSecretEdit({ row, onDone, onCancel }: { row: ResourceObject; onDone(): void; onCancel(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const isKey = typeOf(row.secret_type) === 'ssh_key';
  const save = async () => {
    setBusy(true);
    try {
      await updateAccount(row.id, { name: row.name, secret });
      void message.success(t('accounts.action.secretSaved'));
      onDone();
    } catch (e) {
      void message.error(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };
  const input = isKey ? (
    <Input.TextArea
      rows={3}
      value={secret}
      onChange={(e) => setSecret(e.target.value)}
      data-testid="inline-secret"
      placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
    />
  ) : (
    <Input.Password
      size="small"
      value={secret}
      onChange={(e) => setSecret(e.target.value)}
      onPressEnter={() => secret && void save()}
      autoComplete="new-password"
      autoFocus
      data-testid="inline-secret"
    />
  );
  return (
    <Space size={4} data-testid="inline-secret-editor" style={{ minWidth: 220 }}>
      {input}
      <Button
        size="small"
        type="primary"
        loading={busy}
        disabled={!secret}
        onClick={() => void save()}
        data-testid="inline-secret-save"
      >
        {t('accounts.action.save')}
      </Button>
      <Button size="small" onClick={onCancel}>
        {t('accounts.action.cancel')}
      </Button>
    </Space>
  );
}
