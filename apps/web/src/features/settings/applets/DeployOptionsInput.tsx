import { Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { APPLET_HOST_DEPLOY_OPTIONS } from '@gatehouse/contract';

/**
 * An applet host's deploy options (contract APPLET_HOST_DEPLOY_OPTIONS) as one input each; the form
 * item's value is the JSON text the generic form sends (or the object the API answered).
 */
export function DeployOptionsInput({ value, onChange }: { value?: unknown; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  let options: Record<string, unknown> = {};
  if (value && typeof value === 'object') options = value as Record<string, unknown>;
  else if (typeof value === 'string' && value)
    try {
      options = JSON.parse(value) as Record<string, unknown>;
    } catch {
      options = {};
    }
  const set = (name: string, v: unknown) => onChange?.(JSON.stringify({ ...options, [name]: v }));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="deploy-options">
      {APPLET_HOST_DEPLOY_OPTIONS.map((o) => {
        const v = options[o.name] ?? o.default;
        return (
          <div key={o.name}>
            <Typography.Text>{t(`applets.deploy.${o.name}`)}</Typography.Text>
            <div>
              {o.kind === 'bool' ? (
                <Switch checked={v === true} onChange={(c) => set(o.name, c)} />
              ) : o.kind === 'choice' ? (
                <Select
                  style={{ width: '100%' }}
                  value={Number(v)}
                  onChange={(c: number) => set(o.name, c)}
                  options={(o.choices ?? []).map((c) => ({ value: c.value, label: t(`applets.deploy.${c.label}`) }))}
                />
              ) : o.kind === 'int' ? (
                <InputNumber
                  style={{ width: '100%' }}
                  min={o.min}
                  max={o.max}
                  value={Number(v)}
                  onChange={(c) => set(o.name, c ?? 0)}
                />
              ) : (
                <Input
                  name={`deploy_options.${o.name}`}
                  placeholder={o.kind === 'url' ? 'https://' : undefined}
                  value={String(v ?? '')}
                  onChange={(e) => set(o.name, e.target.value)}
                />
              )}
            </div>
          </div>
        );
      })}
    </Space>
  );
}
