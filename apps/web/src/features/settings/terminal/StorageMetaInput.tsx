import { Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StorageMetaField } from '@gatehouse/contract';

/**
 * The settings of a storage's type (`meta`, contract `REPLAY_STORAGE_META` or `COMMAND_STORAGE_META`) as one input per
 * setting; the form item's value is the JSON text the generic form sends. A secret is never shown
 * back: left empty on an update, the stored one is kept.
 */
export function StorageMetaInput({
  declaration,
  value,
  onChange,
}: {
  declaration: Readonly<Record<string, readonly StorageMetaField[]>>;
  value?: string;
  onChange?: (v: string) => void;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const raw = Form.useWatch('type', form) as unknown;
  const type = String(raw && typeof raw === 'object' ? (raw as { value: string }).value : raw);
  const fields = declaration[type] ?? [];
  let meta: Record<string, string> = {};
  try {
    meta = (value ? JSON.parse(value) : {}) as Record<string, string>;
  } catch {
    meta = {};
  }
  const set = (name: string, v: string) => onChange?.(JSON.stringify({ ...meta, [name]: v }));
  if (!fields.length) return <Typography.Text type="secondary">{t('settingsTerminal.storage.noMeta')}</Typography.Text>;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="storage-meta">
      {fields.map((f) => (
        <div key={f.name}>
          <Typography.Text>
            {f.required ? <span style={{ color: '#ff4d4f' }}>* </span> : null}
            {t(`settingsTerminal.meta.${f.name}`)}
          </Typography.Text>
          {f.choices ? (
            <Select
              style={{ width: '100%' }}
              value={meta[f.name] ?? f.default}
              options={f.choices.map((c) => ({ value: c, label: c }))}
              onChange={(v: string) => set(f.name, v)}
            />
          ) : f.secret ? (
            <Input.Password
              name={`meta.${f.name}`}
              autoComplete="new-password"
              placeholder={t('settingsTerminal.storage.secretKept')}
              value={meta[f.name] ?? ''}
              onChange={(e) => set(f.name, e.target.value)}
            />
          ) : (
            <Input
              name={`meta.${f.name}`}
              placeholder={f.url || f.urls ? 'https://' : undefined}
              value={meta[f.name] ?? ''}
              onChange={(e) => set(f.name, e.target.value)}
            />
          )}
        </div>
      ))}
    </Space>
  );
}
