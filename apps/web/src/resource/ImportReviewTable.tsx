import { useState, type HTMLAttributes } from 'react';
import { Progress, Radio, Table, Typography } from 'antd';
import { CheckCircleFilled, ClockCircleOutlined, CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  counts,
  filterRows,
  progressPercent,
  STATUS,
  type ImportRow,
  type ImportState,
  type RowFilter,
} from './importMachine.ts';
import { MASK } from './importFile.ts';
import { SECRET_COLUMNS } from './secrets.ts';
import { objectName } from './values.ts';

function StatusIcon({ row }: { row: ImportRow }) {
  const { t } = useTranslation();
  const s = row[STATUS];
  if (s === 'ok') return <CheckCircleFilled style={{ color: '#1ab394' }} aria-label={t('resource.import.ok')} />;
  if (s === 'pending') return <ClockCircleOutlined aria-label={t('resource.import.pending')} />;
  return (
    <Typography.Text type="danger" data-testid="import-row-error">
      <CloseCircleFilled aria-label={t('resource.import.failed')} /> {s.error}
    </Typography.Text>
  );
}

function cell(field: string, value: unknown): string {
  if (SECRET_COLUMNS.includes(field) && value) return MASK;
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map(objectName).join(', ');
  return typeof value === 'object' ? objectName(value) : String(value);
}

/** The parsed rows with their status, a progress bar and All/Success/Failed/Pending filters. */
export function ImportReviewTable({ state, titles }: { state: ImportState; titles: [string, string][] }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<RowFilter>('all');
  const c = counts(state);
  const rows = filterRows(state, filter);
  const width = (field: string, label: string) =>
    Math.min(
      180,
      Math.max(100, 10 * Math.max(label.length, ...state.rows.slice(0, 50).map((r) => cell(field, r[field]).length))),
    );
  return (
    <div data-testid="import-review">
      <Progress percent={progressPercent(state)} size="small" />
      <Radio.Group
        value={filter}
        onChange={(e) => setFilter(e.target.value as RowFilter)}
        style={{ margin: '8px 0' }}
        size="small"
      >
        <Radio.Button value="all">{t('resource.import.filterAll', { count: c.all })}</Radio.Button>
        <Radio.Button value="ok">{t('resource.import.filterOk', { count: c.ok })}</Radio.Button>
        <Radio.Button value="error">{t('resource.import.filterFailed', { count: c.error })}</Radio.Button>
        <Radio.Button value="pending">{t('resource.import.filterPending', { count: c.pending })}</Radio.Button>
      </Radio.Group>
      <Table<ImportRow>
        size="small"
        rowKey={(r) => String(state.rows.indexOf(r))}
        dataSource={rows}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: STATUS,
            title: t('resource.import.status'),
            width: c.error ? 280 : 70,
            fixed: 'left',
            render: (_, r) => <StatusIcon row={r} />,
          },
          ...titles.map(([label, field]) => ({
            key: field,
            title: label,
            width: width(field, label),
            ellipsis: true,
            render: (_: unknown, r: ImportRow) => cell(field, r[field]),
          })),
        ]}
        onRow={(r) =>
          ({ 'data-status': typeof r[STATUS] === 'object' ? 'error' : r[STATUS] }) as HTMLAttributes<HTMLElement>
        }
      />
    </div>
  );
}
