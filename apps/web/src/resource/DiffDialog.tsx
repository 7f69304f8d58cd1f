import { Alert, Modal, Spin, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../lib/http.ts';
import { errorMessage } from './errorMessage.ts';
import styles from './resource.module.css';

export interface DiffItem {
  field: string;
  before: unknown;
  after: unknown;
}

const show = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The before/after of one operation as a table (the dialog, the operate log's detail). */
export function DiffTable({ items }: { items: DiffItem[] }) {
  const { t } = useTranslation();
  return (
    <Table<DiffItem>
      data-testid="diff-table"
      size="small"
      rowKey="field"
      pagination={false}
      dataSource={items}
      columns={[
        { key: 'field', dataIndex: 'field', title: t('resource.activity.field'), width: 160 },
        {
          key: 'before',
          title: t('resource.activity.before'),
          render: (_, r) => <span className={styles.diffBefore}>{show(r.before)}</span>,
        },
        {
          key: 'after',
          title: t('resource.activity.after'),
          render: (_, r) => <span className={styles.diffAfter}>{show(r.after)}</span>,
        },
      ]}
    />
  );
}

/** The before/after of one operation (`GET <detail_url>` → `{diff: [{field, before, after}]}`). */
export function DiffDialog({ url, onClose }: { url: string | null; onClose(): void }) {
  const { t } = useTranslation();
  const diff = useQuery({
    queryKey: ['operate-diff', url],
    queryFn: () => http.get<{ diff: DiffItem[] | string }>(url!),
    enabled: Boolean(url),
  });
  const items = Array.isArray(diff.data?.diff) ? diff.data.diff : [];
  return (
    <Modal open={Boolean(url)} title={t('resource.activity.diffTitle')} onCancel={onClose} footer={null} width="60%">
      {diff.isPending && <Spin />}
      {diff.error && <Alert type="error" showIcon title={errorMessage(diff.error, t)} />}
      {diff.data && <DiffTable items={items} />}
    </Modal>
  );
}
