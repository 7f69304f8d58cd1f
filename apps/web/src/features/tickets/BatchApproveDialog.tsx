import { Alert, Modal, Radio, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../resource/errorMessage.ts';
import type { ResourceObject } from '../../resource/types.ts';
import { bulkAct, TYPED_PREFIX } from './ticketsApi.ts';

/**
 * Batch approval: the selected open tickets of one type are approved or rejected at once; the
 * server refuses the whole batch when one is not the caller's to decide, and the dialog says why.
 */
export function BatchApproveDialog({ rows, onClose }: { rows: ResourceObject[]; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation();
  const [action, setAction] = useState<'approve' | 'reject'>('approve');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const types = [...new Set(rows.map((r) => (r.type as { value: string }).value))];
  const problem =
    types.length !== 1
      ? t('tickets.batch.oneType')
      : !TYPED_PREFIX[types[0]!]
        ? t('tickets.batch.notTyped')
        : rows.some((r) => (r.status as { value: string }).value !== 'open')
          ? t('tickets.batch.openOnly')
          : undefined;
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await bulkAct(
        types[0]!,
        action,
        rows.map((r) => r.id),
      );
      onClose(true);
    } catch (e) {
      setError(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('tickets.batch.title')}
      okText={t('tickets.batch.submit')}
      okButtonProps={{ disabled: Boolean(problem), loading: busy, danger: action === 'reject' }}
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      width={640}
    >
      {(problem ?? error) && <Alert type="error" showIcon title={problem ?? error} style={{ marginBottom: 12 }} />}
      <Radio.Group
        value={action}
        onChange={(e) => setAction(e.target.value as 'approve' | 'reject')}
        style={{ marginBottom: 12 }}
      >
        <Radio value="approve">{t('tickets.action.approve')}</Radio>
        <Radio value="reject">{t('tickets.action.reject')}</Radio>
      </Radio.Group>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t('tickets.field.serial'), dataIndex: 'serial_num' },
          { title: t('tickets.field.title'), dataIndex: 'title' },
          {
            title: t('tickets.field.applicant'),
            render: (_: unknown, r: ResourceObject) => (r.applicant as { name: string }).name,
          },
        ]}
      />
    </Modal>
  );
}
