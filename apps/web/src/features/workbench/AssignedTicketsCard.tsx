import { Alert, Card, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission, licenseIsValid } from '@gatehouse/contract';
import { useAppStore } from '../../lib/appStore.ts';
import { errorMessage } from '../../resource/errorMessage.ts';
import { STATE_COLOR, ticketPath, type Ticket } from '../tickets/ticketsApi.ts';
import { fetchAssignedTickets } from './workbenchApi.ts';
import { formatDate } from '../../resource/values.ts';

/** The tickets view's list of what waits for me. */
export const ASSIGNED_TICKETS_PATH = '/tickets/assigned-tickets';

/**
 * The open tickets waiting for the user's decision (`/api/v1/tickets/tickets/?assignees__id=<me>
 * &state=pending`, five latest), each linking to its page; shown with a valid licence and
 * `tickets.view_ticket`, as the tickets view itself.
 */
export function AssignedTicketsCard() {
  const { t, i18n } = useTranslation();
  const me = useAppStore((s) => s.profile?.id);
  const perms = useAppStore((s) => s.perms);
  const settings = useAppStore((s) => s.publicSettings);
  const shown = Boolean(me) && licenseIsValid(settings) && hasPermission(perms, 'tickets.view_ticket');
  const tickets = useQuery({
    queryKey: ['workbench', 'assigned-tickets', me],
    queryFn: () => fetchAssignedTickets(me!),
    enabled: shown,
  });
  if (!shown) return null;
  const columns: ColumnsType<Ticket> = [
    {
      key: 'title',
      title: t('workbench.ticket.title'),
      ellipsis: true,
      render: (_, r) => <Link to={ticketPath(r)}>{r.title}</Link>,
    },
    { key: 'type', title: t('workbench.ticket.type'), render: (_, r) => r.type.label },
    { key: 'applicant', title: t('workbench.ticket.applicant'), render: (_, r) => r.applicant?.name ?? '-' },
    {
      key: 'state',
      title: t('workbench.ticket.state'),
      render: (_, r) => <Tag color={STATE_COLOR[r.state.value]}>{r.state.label}</Tag>,
    },
    {
      key: 'date_created',
      title: t('workbench.ticket.dateCreated'),
      render: (_, r) => formatDate(r.date_created, i18n.language),
    },
  ];
  return (
    <Card
      title={t('workbench.home.assignedTickets')}
      data-testid="workbench-assigned-tickets"
      extra={<Link to={ASSIGNED_TICKETS_PATH}>{t('workbench.home.all')}</Link>}
    >
      {tickets.isError ? (
        <Alert type="error" showIcon title={errorMessage(tickets.error, t)} />
      ) : (
        <Table<Ticket>
          rowKey="id"
          size="small"
          pagination={false}
          loading={tickets.isLoading}
          columns={columns}
          dataSource={tickets.data?.results ?? []}
          scroll={{ x: true }}
          locale={{ emptyText: t('workbench.ticket.empty') }}
        />
      )}
    </Card>
  );
}
