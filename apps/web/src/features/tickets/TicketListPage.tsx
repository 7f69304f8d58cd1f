import { Button, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppStore } from '../../lib/appStore.ts';
import type { CellFormatter } from '../../resource/formatters.tsx';
import { ResourceList } from '../../resource/ResourceList.tsx';
import type { ResourceObject } from '../../resource/types.ts';
import { BatchApproveDialog } from './BatchApproveDialog.tsx';
import { STATE_COLOR, ticketPath, TICKETS_URL } from './ticketsApi.ts';

const choiceTag: CellFormatter = ({ value }) => {
  const v = value as { value: string; label: string } | null;
  return v ? <Tag color={STATE_COLOR[v.value] ?? 'default'}>{v.label}</Tag> : '-';
};
const applicant: CellFormatter = ({ value }) => (value as { name?: string } | null)?.name ?? '-';

/**
 * `/tickets/my-tickets` (tickets I asked for) and `/tickets/assigned-tickets` (tickets whose current
 * step is mine, with batch approve and reject): the ticket list filtered for the caller, open ones
 * first shown by the `status` tag.
 */
export function TicketListPage({ mode }: { mode: 'my' | 'assigned' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useAppStore((s) => s.profile?.id) ?? '';
  const [batch, setBatch] = useState<{ rows: ResourceObject[]; reload: () => void } | undefined>();
  const extraQuery: Record<string, string> = mode === 'my' ? { applicant: me } : { assignees__id: me };
  return (
    <div data-testid={`tickets-${mode}`}>
      <ResourceList
        key={mode}
        url={TICKETS_URL}
        name={mode === 'my' ? 'MyTicketList' : 'AssignedTicketList'}
        paths={null}
        urlQuery
        extraQuery={extraQuery}
        detailPath={(row) => ticketPath(row as never)}
        linkColumn="title"
        columns={['serial_num', 'title', 'type', 'applicant', 'org_name', 'state', 'status', 'date_created']}
        columnsShow={{
          default: ['serial_num', 'title', 'type', 'applicant', 'state', 'date_created'],
          min: ['title', 'state'],
        }}
        columnsMeta={{ state: { formatter: choiceTag }, applicant: { formatter: applicant } }}
        noSelection={mode === 'my'}
        headerActions={{
          hasCreate: false,
          hasImport: false,
          hasExport: false,
          hasBulkDelete: false,
          extra:
            mode === 'my'
              ? [
                  {
                    key: 'request',
                    render: () => (
                      <Button
                        type="primary"
                        icon={<PlusOutlined />}
                        data-testid="request-assets"
                        onClick={() => void navigate('/tickets/tickets/request-host-perm/create')}
                      >
                        {t('tickets.list.requestAssets')}
                      </Button>
                    ),
                  },
                ]
              : [],
          batchExtra: [
            {
              key: 'batch-approve',
              label: t('tickets.batch.title'),
              has: mode === 'assigned',
              onClick: (rows, reload) => setBatch({ rows, reload }),
            },
          ],
        }}
        rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
      />
      {batch && (
        <BatchApproveDialog
          rows={batch.rows}
          onClose={(changed) => {
            if (changed) batch.reload();
            setBatch(undefined);
          }}
        />
      )}
    </div>
  );
}
