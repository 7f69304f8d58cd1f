import { useTranslation } from 'react-i18next';
import { DownloadOutlined } from '@ant-design/icons';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../resource/formatters.tsx';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import { bool } from './sessionCells.tsx';
import { ftpFileUrl } from './sessionLinks.ts';
import { ftpLogRoute } from './sessionRoutes.tsx';
import { AUDIT_DETAIL, AUDIT_LIST } from '../auditList.ts';

/** File transfers: read-only, filters and date range; the kept file is a download link when `has_file`. */
const FIELDS = ['user', 'remote_addr', 'asset', 'account', 'operate', 'filename', 'is_success', 'date_start'];

function FileLink({ row }: { row: Record<string, unknown> }) {
  const { t } = useTranslation();
  if (!row.has_file) return <>-</>;
  return (
    <a href={ftpFileUrl(String(row.id), row.org_id)} data-testid="ftp-download">
      <DownloadOutlined /> {t('audit.session.downloadFile')}
    </a>
  );
}

const fileCell: CellFormatter = ({ row }) => <FileLink row={row} />;

export const ftpLogPages: ResourcePagesConfig = {
  ...ftpLogRoute,
  list: {
    ...AUDIT_LIST,
    name: 'FtpLogList',
    columns: [...FIELDS, 'has_file'],
    columnsShow: { min: ['filename', 'has_file'] },
    columnsMeta: { is_success: { formatter: bool }, has_file: { formatter: fileCell }, actions: { has: false } },
    linkColumn: 'filename',
    noSelection: true,
  },
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'FtpLogDetail',
        title: 'audit.tab.Detail',
        render: (log, { meta }) => (
          <DetailCard
            title="audit.card.basic"
            object={log}
            meta={meta}
            fields={['id', ...FIELDS, 'has_file']}
            formatters={{ is_success: bool, has_file: fileCell }}
          />
        ),
      },
    ],
  },
};
