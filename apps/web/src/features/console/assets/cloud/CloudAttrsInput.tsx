import { Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CLOUD_PROVIDER_ATTRS, type CloudAttrField } from '@gatehouse/contract';
import { RemoteSelect } from '../../../../resource/RemoteSelect.tsx';

/**
 * A cloud account's `attrs` as one input per attribute of the chosen provider (contract
 * `CLOUD_PROVIDER_ATTRS`, console reference §3.12); the form item's value is the JSON text the
 * generic form sends. A secret is sent transport-encrypted (`cloudAttrsEncrypted`) and never shown
 * back: left empty on an update, the sealed one is kept.
 */
type Attrs = Record<string, unknown>;

export const parseAttrs = (value: unknown): Attrs => {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Attrs;
  try {
    const v = JSON.parse(String(value ?? '{}')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Attrs) : {};
  } catch {
    return {};
  }
};

const providerOf = (raw: unknown) => String(raw && typeof raw === 'object' ? (raw as { value: string }).value : raw);

/** The body's `attrs`: only the provider's attributes, defaults for those left alone, no empty secret. */
export function cleanAttrs(provider: unknown, value: unknown): Attrs {
  const attrs = parseAttrs(value);
  const out: Attrs = {};
  for (const f of CLOUD_PROVIDER_ATTRS[providerOf(provider)] ?? []) {
    const v = attrs[f.name] ?? f.default;
    if (v === undefined || (f.kind === 'secret' && !v)) continue;
    out[f.name] = typeof v === 'string' && f.kind !== 'secret' ? v.trim() : v;
  }
  return out;
}

/** Every provider's secret attributes, as the form's `encryptedFields`. */
export const cloudAttrsEncrypted = [
  ...new Set(
    Object.values(CLOUD_PROVIDER_ATTRS)
      .flat()
      .filter((f) => f.kind === 'secret')
      .map((f) => `attrs.${f.name}`),
  ),
];

function AttrInput({
  f,
  value,
  set,
  isUpdate,
}: {
  f: CloudAttrField;
  value: unknown;
  set: (v: unknown) => void;
  isUpdate: boolean;
}) {
  const { t } = useTranslation();
  const name = `attrs.${f.name}`;
  switch (f.kind) {
    case 'secret':
      return (
        <Input.Password
          name={name}
          autoComplete="new-password"
          placeholder={isUpdate ? t('assets.cloud.SecretKept') : undefined}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => set(e.target.value)}
        />
      );
    case 'number':
      return (
        <InputNumber
          name={name}
          style={{ width: '100%' }}
          value={typeof value === 'number' ? value : Number(value ?? f.default)}
          onChange={(v) => set(v ?? f.default)}
        />
      );
    case 'domain':
      return (
        <RemoteSelect
          id={name}
          url="/api/v1/assets/domains/"
          value={typeof value === 'string' && value ? value : null}
          onChange={(v) => set(typeof v === 'string' ? v : '')}
          placeholder={t('assets.cloud.DomainNone')}
        />
      );
    case 'list':
      return (
        <Select
          data-testid={name}
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', ' ']}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={(v: string[]) => set(v)}
        />
      );
    default:
      return <Input name={name} value={typeof value === 'string' ? value : ''} onChange={(e) => set(e.target.value)} />;
  }
}

export function CloudAttrsInput({ value, onChange }: { value?: unknown; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const form = Form.useFormInstance();
  const provider = providerOf(Form.useWatch('provider', form));
  const fields = CLOUD_PROVIDER_ATTRS[provider] ?? [];
  const attrs = parseAttrs(value);
  const set = (name: string, v: unknown) => onChange?.(JSON.stringify({ ...attrs, [name]: v }));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="cloud-attrs">
      {fields.map((f) => (
        <div key={f.name}>
          <Typography.Text data-testid="cloud-attr-label">
            {f.required ? <span style={{ color: '#ff4d4f' }}>* </span> : null}
            {t(`assets.cloud.attr.${f.name}`)}
          </Typography.Text>
          <AttrInput f={f} value={attrs[f.name] ?? f.default} set={(v) => set(f.name, v)} isUpdate={Boolean(id)} />
          {f.name === 'ip_group' || f.name === 'domain' ? (
            <Typography.Text type="secondary">
              {t(f.name === 'domain' ? 'assets.cloud.DomainHelp' : 'assets.cloud.IpGroupHelp')}
            </Typography.Text>
          ) : null}
        </div>
      ))}
    </Space>
  );
}
