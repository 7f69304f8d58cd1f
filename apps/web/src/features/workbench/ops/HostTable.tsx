import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { hostColor, secondsText, type HostRow } from './hostResults.ts';
import styles from './ops.module.css';

/** The per-host results of an execution: status, the server's reason, time, and the output when opened. */
export function HostTable({ rows, loading }: { rows: HostRow[]; loading?: boolean }) {
  const { t } = useTranslation();
  return (
    <Table<HostRow>
      size="small"
      rowKey="key"
      loading={loading}
      dataSource={rows}
      pagination={rows.length > 10 ? { pageSize: 10 } : false}
      data-testid="host-results"
      locale={{ emptyText: t('jobs.result.noHosts') }}
      expandable={{
        rowExpandable: (r) => Boolean(r.output),
        expandedRowRender: (r) => <pre className={styles.output}>{r.output}</pre>,
      }}
      columns={[
        { key: 'name', dataIndex: 'name', title: t('jobs.result.asset') },
        {
          key: 'status',
          dataIndex: 'status',
          title: t('jobs.result.status'),
          render: (s: string) => (
            <Tag color={hostColor(s)} data-testid="host-status">
              {t(`jobs.hostStatus.${s}`, { defaultValue: s })}
            </Tag>
          ),
        },
        { key: 'reason', dataIndex: 'reason', title: t('jobs.result.reason') },
        {
          key: 'timeCost',
          dataIndex: 'timeCost',
          title: t('jobs.result.timeCost'),
          render: (v?: number) => secondsText(v, t),
        },
      ]}
    />
  );
}
