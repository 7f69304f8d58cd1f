import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { WeekGrid } from './WeekGrid.tsx';
import type { DayPeriods } from './weekGrid.ts';
import { parseJsonValue } from './jsonValue.ts';

interface Rules {
  ip_group: string[];
  time_period: DayPeriods[];
}

export interface RulesFieldProps {
  value?: string | Rules;
  /** Sends JSON text, as the form holds `json` fields (the payload parses it). */
  onChange?(value: string): void;
}

/** A rule's `rules`: the IP group (one item per line or comma) and the weekly time-period grid. */
export function RulesField({ value, onChange: emit }: RulesFieldProps) {
  const onChange = (v: Rules) => emit?.(JSON.stringify(v));
  const { t } = useTranslation();
  const rules = parseJsonValue<Rules>(value) ?? { ip_group: ['*'], time_period: [] };
  const ipText = (rules.ip_group ?? []).join('\n');
  return (
    <div data-testid="rules-field">
      <Form.Item label={t('acls.rules.ipGroup')} extra={t('acls.rules.ipGroupHelp')} layout="vertical">
        <Input.TextArea
          rows={3}
          aria-label={t('acls.rules.ipGroup')}
          data-testid="ip-group"
          defaultValue={ipText}
          onChange={(e) =>
            onChange({
              ...rules,
              ip_group: e.target.value
                .split(/[\n,]/)
                .map((s) => s.trim())
                .filter(Boolean),
            })
          }
        />
      </Form.Item>
      <Form.Item label={t('acls.rules.timePeriod')} extra={t('acls.rules.timePeriodHelp')} layout="vertical">
        <WeekGrid value={rules.time_period} onChange={(time_period) => onChange({ ...rules, time_period })} />
      </Form.Item>
    </div>
  );
}
