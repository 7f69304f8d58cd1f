import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { escapeHtml } from '../notifications/sanitize.ts';
import type { SiteMessageText } from '../notifications/siteMessages.ts';
import { notify } from '../notifications/notify.ts';
import { km } from './ticketMessages.ts';
import type { TicketRow } from './ticketStore.ts';

/**
 * Messages about tickets (site message and mail, `notifications/notify.ts`): the assignees of the step that opens learn there is a ticket to
 * decide, the applicant learns the outcome; each links to the ticket's console page. Never fails
 * the action that caused it. Each recipient reads it in their own language
 * (`notifications/userLanguage.ts`).
 */

export const ticketUrl = (t: { id: string; type: string }) => `/ui/tickets/tickets/${t.id}?type=${t.type}`;

function link(url: string, text: string): string {
  return text.replace('{url}', escapeHtml(url));
}

async function send(
  app: FastifyInstance,
  type: 'ticket_assigned' | 'ticket_outcome',
  userIds: string[],
  text: (lang: Language) => SiteMessageText,
): Promise<void> {
  const { database, bus, settings } = app.deps;
  await notify({ db: database.db, bus, settings, log: app.log }, { type, userIds, text });
}

export async function notifyAssignees(app: FastifyInstance, t: TicketRow, userIds: string[]): Promise<void> {
  const params = {
    applicant: escapeHtml(t.applicant_display),
    title: escapeHtml(t.title),
    serial: t.serial_num,
    url: '{url}',
  };
  await send(app, 'ticket_assigned', userIds, (lang) => ({
    subject: km(lang, 'msg_assigned_subject', { title: t.title }),
    message: link(ticketUrl(t), km(lang, 'msg_assigned_body', params)),
  }));
}

export async function notifyApplicant(
  app: FastifyInstance,
  t: TicketRow,
  state: string,
  processor: string,
): Promise<void> {
  if (!t.applicant_id) return;
  await send(app, 'ticket_outcome', [t.applicant_id], (lang) => {
    const label = km(lang, `state_${state}` as 'state_approved').toLowerCase();
    return {
      subject: km(lang, 'msg_outcome_subject', { state: label, title: t.title }),
      message: link(
        ticketUrl(t),
        km(lang, 'msg_outcome_body', {
          processor: escapeHtml(processor),
          state: label,
          title: escapeHtml(t.title),
          serial: t.serial_num,
          url: '{url}',
        }),
      ),
    };
  });
}
