import { Button, Input, Popover, Radio, Select, Space, Switch, Tag, Tooltip } from 'antd';
import { DeleteOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  canRemove,
  nextRow,
  protocolsError,
  setPrimary,
  validPort,
  type ProtocolChoice,
  type ProtocolRow,
} from './protocolRules.ts';

export interface ProtocolsFieldProps {
  value?: ProtocolRow[];
  onChange?(value: ProtocolRow[]): void;
  /** What may be chosen: the platform's protocols (assets) or every known protocol (platforms). */
  choices: ProtocolChoice[];
  /** Platforms choose the primary and edit settings; assets keep the platform's primary. */
  mode: 'asset' | 'platform';
  disabled?: boolean;
}

/** The form rule of the editor (the message of the first broken rule). */
export function protocolsRule(t: TFunction, choices: ProtocolChoice[], mode: 'asset' | 'platform'): FormRule {
  const primaryName = mode === 'asset' ? choices.find((c) => c.primary)?.name : undefined;
  return {
    validator: async (_, v: ProtocolRow[] | undefined) => {
      const err = protocolsError(v ?? [], { primaryName, choosePrimary: mode === 'platform' });
      if (err) throw new Error(t(err, { name: primaryName }));
    },
  };
}

function SettingEditor({
  row,
  onChange,
  disabled,
}: {
  row: ProtocolRow;
  onChange(s: Record<string, unknown>): void;
  disabled?: boolean;
}) {
  const setting = row.setting ?? {};
  return (
    <Space direction="vertical" style={{ minWidth: 280 }} data-testid={`protocol-setting-${row.name}`}>
      {Object.entries(setting).map(([k, v]) => (
        <div key={k} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <span style={{ width: 140 }}>{k}</span>
          {typeof v === 'boolean' ? (
            <Switch size="small" checked={v} disabled={disabled} onChange={(c) => onChange({ ...setting, [k]: c })} />
          ) : (
            <Input
              size="small"
              value={typeof v === 'string' ? v : JSON.stringify(v)}
              disabled={disabled}
              onChange={(e) => onChange({ ...setting, [k]: e.target.value })}
            />
          )}
        </div>
      ))}
    </Space>
  );
}

/** Rows of protocol + port (ProtocolSelector): one primary, the last row stays. */
export function ProtocolsField({ value = [], onChange, choices, mode, disabled }: ProtocolsFieldProps) {
  const { t } = useTranslation();
  const rows = value;
  const required = mode === 'asset' ? choices.filter((c) => c.required || c.primary).map((c) => c.name) : [];
  const update = (i: number, patch: Partial<ProtocolRow>) =>
    onChange?.(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const add = () => {
    const row = nextRow(rows, choices);
    if (row) onChange?.([...rows, row]);
  };
  return (
    <div data-testid="protocols-field">
      {rows.map((row, i) => {
        const choice = choices.find((c) => c.name === row.name);
        const options = choices
          .filter((c) => c.name === row.name || !rows.some((r) => r.name === c.name))
          .map((c) => ({ value: c.name, label: c.name }));
        const hasSettings = mode === 'platform' && Object.keys(row.setting ?? {}).length > 0;
        const removable = canRemove(rows, i, required);
        return (
          <Space.Compact key={i} style={{ display: 'flex', marginBottom: 8 }} data-testid={`protocol-row-${i}`}>
            <Select
              style={{ width: 160 }}
              value={row.name}
              options={options}
              disabled={disabled || (mode === 'asset' && required.includes(row.name))}
              onChange={(name: string) => {
                const c = choices.find((x) => x.name === name);
                update(i, { name, port: c?.port ?? row.port, setting: { ...(c?.setting ?? {}) } });
              }}
              aria-label={t('assets.protocol.name')}
            />
            <Input
              style={{ flex: 1 }}
              value={row.port === null || row.port === undefined ? '' : String(row.port)}
              status={validPort(row.port) ? undefined : 'error'}
              disabled={disabled || Boolean(choice?.port_from_addr)}
              placeholder={t('assets.protocol.port')}
              aria-label={t('assets.protocol.port')}
              data-testid={`protocol-port-${i}`}
              onChange={(e) =>
                update(i, { port: /^\d+$/.test(e.target.value) ? Number(e.target.value) : e.target.value })
              }
            />
            {mode === 'platform' ? (
              <Tooltip title={t('assets.protocol.primary')}>
                <Button
                  disabled={disabled}
                  onClick={() => onChange?.(setPrimary(rows, i))}
                  data-testid={`protocol-primary-${i}`}
                >
                  <Radio checked={Boolean(row.primary)} style={{ marginInlineEnd: 0 }} />
                </Button>
              </Tooltip>
            ) : (
              row.primary && (
                <Button disabled>
                  <Tag color="blue" style={{ margin: 0 }}>
                    {t('assets.protocol.primary')}
                  </Tag>
                </Button>
              )
            )}
            {hasSettings && (
              <Popover
                trigger="click"
                title={t('assets.protocol.settings')}
                content={<SettingEditor row={row} disabled={disabled} onChange={(setting) => update(i, { setting })} />}
              >
                <Button icon={<SettingOutlined />} aria-label={t('assets.protocol.settings')} />
              </Popover>
            )}
            <Button
              icon={<DeleteOutlined />}
              disabled={disabled || !removable}
              onClick={() => onChange?.(rows.filter((_, j) => j !== i))}
              aria-label={t('assets.protocol.remove')}
              data-testid={`protocol-remove-${i}`}
            />
          </Space.Compact>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        disabled={disabled || !nextRow(rows, choices)}
        onClick={add}
        data-testid="protocol-add"
      >
        {t('assets.protocol.add')}
      </Button>
    </div>
  );
}
