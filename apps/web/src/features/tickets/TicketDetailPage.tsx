import { Alert, Button, Card, Col, Descriptions, Popconfirm, Row, Space, Spin, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useAppStore } from '../../lib/appStore.ts';
import { errorMessage } from '../../resource/errorMessage.ts';
import { formatDate } from '../../resource/values.ts';
import { TicketComments } from './TicketComments.tsx';
import { TicketRequestCard, type GrantEdits } from './TicketRequestCard.tsx';
import { TicketSteps } from './TicketSteps.tsx';
import { TicketSessionCard } from './TicketSessionCard.tsx';
import {
  approveTicket,
  closeTicket,
  fetchTicket,
  rejectTicket,
  STATE_COLOR,
  TYPED_PREFIX,
  type Ticket,
} from './ticketsApi.ts';

/**
 * A ticket's page (`/tickets/tickets/<kind>/<id>` and `/tickets/tickets/<id>`): its basics, what it
 * asks for, the approval steps, comments and the actions the caller may take: approve and reject
 * for the current step's assignees (an asset request's grant editable on the final step), close
 * for the applicant and the assignees.
 */
export function TicketDetailPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const me = useAppStore((s) => s.profile?.id);
  const ticket = useQuery({ queryKey: ['ticket', id], queryFn: () => fetchTicket(id) });
  const [edits, setEdits] = useState<GrantEdits | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (ticket.error) return <Alert type="error" showIcon title={errorMessage(ticket.error, t)} />;
  if (!ticket.data) return <Spin />;
  const tk: Ticket = ticket.data;
  const open = tk.status.value === 'open';
  const step = tk.process_map.find((s) => s.approval_level === tk.approval_step);
  const assignee = open && Boolean(me && step?.assignees.includes(me));
  const canClose = open && (assignee || tk.applicant.id === me);
  const finalStep = tk.approval_step === tk.process_map.length;
  const editable = assignee && finalStep && tk.type.value === 'apply_asset';
  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
      await qc.invalidateQueries({ queryKey: ['ticket', id] });
      // The navbar's ticket badge counts again (shell/TicketBadge.tsx).
      window.dispatchEvent(new Event('gatehouse:tickets-changed'));
    } catch (e) {
      setError(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="ticket-detail">
      <Card
        title={
          <Space>
            <span>{tk.title}</span>
            <Tag color={STATE_COLOR[tk.state.value]} data-testid="ticket-state">
              {tk.state.label}
            </Tag>
          </Space>
        }
        extra={
          <Space>
            {assignee && TYPED_PREFIX[tk.type.value] && (
              <Button
                type="primary"
                loading={busy}
                onClick={() => void act(() => approveTicket(tk, edits))}
                data-testid="ticket-approve"
              >
                {t('tickets.action.approve')}
              </Button>
            )}
            {assignee && (
              <Popconfirm title={t('tickets.action.rejectConfirm')} onConfirm={() => void act(() => rejectTicket(tk))}>
                <Button danger loading={busy} data-testid="ticket-reject">
                  {t('tickets.action.reject')}
                </Button>
              </Popconfirm>
            )}
            {canClose && (
              <Popconfirm title={t('tickets.action.closeConfirm')} onConfirm={() => void act(() => closeTicket(tk))}>
                <Button loading={busy} data-testid="ticket-close">
                  {t('tickets.action.close')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        }
      >
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <Space direction="vertical" style={{ width: '100%' }} size="middle">
              <Descriptions column={2} bordered size="small" data-testid="ticket-basic">
                <Descriptions.Item label={t('tickets.field.serial')}>{tk.serial_num}</Descriptions.Item>
                <Descriptions.Item label={t('tickets.field.type')}>{tk.type.label}</Descriptions.Item>
                <Descriptions.Item label={t('tickets.field.applicant')}>{tk.applicant.name}</Descriptions.Item>
                <Descriptions.Item label={t('tickets.field.org')}>{tk.org_name || '-'}</Descriptions.Item>
                <Descriptions.Item label={t('tickets.field.status')}>{tk.status.label}</Descriptions.Item>
                <Descriptions.Item label={t('tickets.field.dateCreated')}>
                  {formatDate(tk.date_created, i18n.language)}
                </Descriptions.Item>
                <Descriptions.Item label={t('tickets.field.comment')} span={2}>
                  {tk.comment || '-'}
                </Descriptions.Item>
              </Descriptions>
              <Card size="small" title={t('tickets.card.request')}>
                <TicketRequestCard ticket={tk} edits={edits} onEdit={editable ? setEdits : undefined} />
              </Card>
              <Card size="small" title={t('tickets.card.comments')}>
                <TicketComments ticketId={tk.id} />
              </Card>
            </Space>
          </Col>
          <Col xs={24} lg={10}>
            <Card size="small" title={t('tickets.card.steps')}>
              <TicketSteps ticket={tk} />
            </Card>
            {(tk.type.value === 'command_confirm' || tk.type.value === 'login_asset_confirm') && (
              <Card size="small" title={t('tickets.session.title')} style={{ marginTop: 16 }}>
                <TicketSessionCard
                  ticketId={tk.id}
                  canAct={Boolean(
                    me && tk.process_map.find((st) => st.approval_level === tk.approval_step)?.assignees.includes(me),
                  )}
                />
              </Card>
            )}
          </Col>
        </Row>
      </Card>
    </div>
  );
}
