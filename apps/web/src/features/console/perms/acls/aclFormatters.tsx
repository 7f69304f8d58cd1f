import { Tag, Typography } from 'antd';
import type { CellFormatter } from '../../../../resource/formatters.tsx';
import { parseJsonValue } from './jsonValue.ts';

interface Selector {
  type?: string;
  ids?: string[];
  attrs?: { name: string; match: string; value: unknown }[];
}

/** A selector in words: "All", "3 chosen", or its attribute rules. */
export const selectorSummary: CellFormatter = ({ value, t }) => {
  const s = parseJsonValue<Selector>(value);
  if (!s || s.type === 'all') return t('acls.selector.allSummary');
  if (s.type === 'ids') return t('acls.selector.idsSummary', { count: s.ids?.length ?? 0 });
  return (
    <span data-testid="attrs-summary">
      {(s.attrs ?? []).map((a, i) => (
        <Tag key={i}>
          {a.name} {t(`acls.match.${a.match}`)} {Array.isArray(a.value) ? a.value.join(', ') : String(a.value ?? '')}
        </Tag>
      ))}
    </span>
  );
};

/** `rules`: the IP group, then each day's periods. */
export const rulesSummary: CellFormatter = ({ value, t }) => {
  const r = parseJsonValue<{ ip_group?: string[]; time_period?: { id: number; value: string }[] }>(value);
  if (!r) return '-';
  return (
    <div>
      <div>
        {t('acls.rules.ipGroup')}:{' '}
        {(r.ip_group ?? []).map((ip) => (
          <Tag key={ip}>{ip}</Tag>
        ))}
      </div>
      {(r.time_period ?? []).map((p) => (
        <div key={p.id}>
          <Typography.Text type="secondary">{t(`acls.rules.day${p.id}`)}:</Typography.Text>{' '}
          {p.value || t('acls.rules.never')}
        </div>
      ))}
    </div>
  );
};

export const tagList: CellFormatter = ({ value }) =>
  Array.isArray(value) && value.length ? value.map((v) => <Tag key={String(v)}>{String(v)}</Tag>) : '-';
