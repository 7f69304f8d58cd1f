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
import { STATE_COLOR, STATUS_COLOR, ticketPath, TICKETS_URL } from './ticketsApi.ts';

/** A labelled choice as a coloured tag (the label is the server's, in the reader's language). */
const choiceTag =
  (colours: Record<string, string>, testId: string): CellFormatter =>
  ({ value }) => {
    const v = value as { value: string; label: string } | null;
    return v ? (
      <Tag color={colours[v.value] ?? 'default'} data-testid={testId} data-value={v.value}>
        {v.label}
      </Tag>
    ) : (
      '-'
    );
  };
const applicant: CellFormatter = ({ value }) => (value as { name?: string } | null)?.name ?? '-';

/**
 * `/tickets/my-tickets` (tickets I asked for) and `/tickets/assigned-tickets` (tickets whose current
 * step is mine, with batch approve and reject): the ticket list filtered for the caller, with the
 * reference's default columns (title, number, type, state and status as coloured tags, date).
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
        columns={['title', 'serial_num', 'type', 'state', 'status', 'applicant', 'org_name', 'date_created']}
        columnsShow={{
          default: ['title', 'serial_num', 'type', 'state', 'status', 'date_created'],
          min: ['title', 'state'],
        }}
        columnsMeta={{
          state: { formatter: choiceTag(STATE_COLOR, 'ticket-state-tag'), width: 110 },
          status: { formatter: choiceTag(STATUS_COLOR, 'ticket-status-tag'), width: 110 },
          applicant: { formatter: applicant },
        }}
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
