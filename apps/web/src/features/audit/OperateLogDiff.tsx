import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { DiffTable, type DiffItem } from '../../resource/DiffDialog.tsx';

/** The operate log detail's second card: what the operation changed (`diff` of the detail answer). */
export function OperateLogDiff({ diff }: { diff: unknown }) {
  const { t } = useTranslation();
  return (
    <Card title={t('auditlogs.card.diff')} style={{ marginTop: 16 }}>
      <DiffTable items={Array.isArray(diff) ? (diff as DiffItem[]) : []} />
    </Card>
  );
}
