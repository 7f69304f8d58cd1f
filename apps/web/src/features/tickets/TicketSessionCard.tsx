import { Alert, Button, Descriptions, Popconfirm, Space, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../lib/http.ts';
import { errorMessage } from '../../resource/errorMessage.ts';
import { TICKETS_URL } from './ticketsApi.ts';

interface TicketSession {
  id: string;
  user: string;
  asset: string;
  account: string;
  is_finished: boolean;
  is_locked: boolean;
}

/**
 * The session of a command-confirm or login-asset ticket; its reviewers watch it (the monitor page
 * with `?ticket_id=`, server: tickets/ticketSession.ts), pause, resume or end it here.
 */
export function TicketSessionCard({ ticketId, canAct }: { ticketId: string; canAct: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['ticket-session', ticketId];
  const url = `${TICKETS_URL}${ticketId}/session/`;
  const session = useQuery({ queryKey: key, queryFn: () => http.get<TicketSession>(url), refetchInterval: 5000 });
  const [error, setError] = useState<string>();
  const act = async (action: 'lock' | 'unlock' | 'kill') => {
    setError(undefined);
    try {
      await http.post(url, { action });
    } catch (e) {
      setError(errorMessage(e, t));
    }
    await qc.invalidateQueries({ queryKey: key });
  };
  if (session.error) return <Alert type="info" showIcon title={errorMessage(session.error, t)} />;
  const s = session.data;
  if (!s) return null;
  const state = s.is_finished ? 'finished' : s.is_locked ? 'locked' : 'running';
  return (
    <div data-testid="ticket-session">
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 8 }} />}
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('tickets.session.id')}>{s.id.slice(0, 8)}</Descriptions.Item>
        <Descriptions.Item label={t('tickets.session.state')}>
          <Tag color={state === 'running' ? 'processing' : state === 'locked' ? 'warning' : 'default'}>
            {t(`tickets.session.${state}`)}
          </Tag>
        </Descriptions.Item>
      </Descriptions>
      {canAct && !s.is_finished && (
        <Space style={{ marginTop: 8 }}>
          <Button
            data-testid="ticket-session-monitor"
            href={`/luna/monitor/${s.id}?ticket_id=${encodeURIComponent(ticketId)}`}
            target="_blank"
            rel="noopener"
          >
            {t('tickets.session.monitor')}
          </Button>
          <Button onClick={() => void act(s.is_locked ? 'unlock' : 'lock')}>
            {t(s.is_locked ? 'tickets.session.resume' : 'tickets.session.pause')}
          </Button>
          <Popconfirm title={t('tickets.session.endConfirm')} onConfirm={() => void act('kill')}>
            <Button danger>{t('tickets.session.end')}</Button>
          </Popconfirm>
        </Space>
      )}
    </div>
  );
}
