import { Button, Input, List, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../resource/values.ts';
import { addComment, fetchComments } from './ticketsApi.ts';

/** The ticket's comments, and a box to add one (applicant and assignees). */
export function TicketComments({ ticketId }: { ticketId: string }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const key = ['ticket-comments', ticketId];
  const comments = useQuery({ queryKey: key, queryFn: () => fetchComments(ticketId) });
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      await addComment(ticketId, body);
      setBody('');
      await qc.invalidateQueries({ queryKey: key });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="ticket-comments">
      <List
        size="small"
        dataSource={comments.data ?? []}
        locale={{ emptyText: t('tickets.comments.none') }}
        renderItem={(c) => (
          <List.Item>
            <List.Item.Meta
              title={`${c.user_display} · ${formatDate(c.date_created, i18n.language)}`}
              description={c.body}
            />
          </List.Item>
        )}
      />
      <Space.Compact style={{ width: '100%', marginTop: 8 }}>
        <Input.TextArea
          rows={2}
          value={body}
          placeholder={t('tickets.comments.placeholder')}
          onChange={(e) => setBody(e.target.value)}
        />
        <Button
          type="primary"
          disabled={!body.trim()}
          loading={busy}
          onClick={() => void send()}
          style={{ height: 'auto' }}
        >
          {t('tickets.comments.send')}
        </Button>
      </Space.Compact>
    </div>
  );
}
