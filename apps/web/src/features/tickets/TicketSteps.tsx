import { Steps } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../resource/values.ts';
import type { Ticket } from './ticketsApi.ts';

/** The approval steps (`process_map`): who may decide each level, and who did, when, how. */
export function TicketSteps({ ticket }: { ticket: Ticket }) {
  const { t, i18n } = useTranslation();
  const open = ticket.status.value === 'open';
  const items = [
    {
      title: t('tickets.steps.applied'),
      description: `${ticket.applicant.name} · ${formatDate(ticket.date_created, i18n.language)}`,
      status: 'finish' as const,
    },
    ...ticket.process_map.map((s) => ({
      title: t('tickets.steps.level', { level: s.approval_level }),
      description: (
        <div data-testid={`ticket-step-${s.approval_level}`}>
          <div>
            {t('tickets.steps.assignees')}: {s.assignees_display.join(', ') || '-'}
          </div>
          {s.processor_display && (
            <div>
              {t(`tickets.steps.state.${s.state}`, { defaultValue: s.state })}: {s.processor_display}
              {s.approval_date ? ` · ${formatDate(s.approval_date, i18n.language)}` : ''}
            </div>
          )}
        </div>
      ),
      status:
        s.state === 'approved'
          ? ('finish' as const)
          : s.state === 'rejected' || s.state === 'closed'
            ? ('error' as const)
            : open && s.status === 'active'
              ? ('process' as const)
              : ('wait' as const),
    })),
  ];
  return <Steps direction="vertical" size="small" items={items} />;
}
