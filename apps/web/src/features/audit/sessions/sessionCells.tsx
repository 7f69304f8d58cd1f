import { Tag, Typography } from 'antd';
import type { CellFormatter } from '../../../resource/formatters.tsx';

/** Cells shared by the session audit's lists. */

/** A session's length from its start to its end (or to now while it runs). */
export const duration: CellFormatter = ({ row }) => {
  const start = Date.parse(String(row.date_start ?? ''));
  if (Number.isNaN(start)) return '-';
  const end = row.date_end ? Date.parse(String(row.date_end)) : Date.now();
  const s = Math.max(0, Math.round((end - start) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h ${m}m` : m ? `${m}m ${s % 60}s` : `${s}s`;
};

/** Risk levels (0 accept, 4 warning, 5 reject, 6 review rejected, 7 review accepted, 8 review cancelled). */
const RISK_COLOURS: Record<number, string> = {
  0: 'success',
  4: 'warning',
  5: 'error',
  6: 'error',
  7: 'processing',
  8: 'default',
};

export const risk: CellFormatter = ({ value }) => {
  const v = value as { value?: number; label?: string } | null;
  if (!v) return '-';
  return (
    <Tag color={RISK_COLOURS[v.value ?? 0] ?? 'default'} data-risk={v.value}>
      {v.label}
    </Tag>
  );
};

/** A command line, monospace. */
export const commandInput: CellFormatter = ({ value }) => (
  <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
    {String(value ?? '')}
  </Typography.Text>
);

/** Output excerpts: two lines, expandable in place. */
export const commandOutput: CellFormatter = ({ value, t }) =>
  value ? (
    <Typography.Paragraph
      style={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: 12, margin: 0, maxWidth: 480 }}
      ellipsis={{ rows: 2, expandable: 'collapsible', symbol: (open) => (open ? '▲' : '▼') }}
      data-testid="command-output"
    >
      {String(value)}
    </Typography.Paragraph>
  ) : (
    <Typography.Text type="secondary">{t('audit.session.noOutput')}</Typography.Text>
  );

export const bool: CellFormatter = ({ value, t }) => (
  <Tag color={value ? 'success' : 'error'}>{t(value ? 'resource.yes' : 'resource.no')}</Tag>
);
