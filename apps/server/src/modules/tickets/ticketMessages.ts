import type { Language, TextParams } from '@gatehouse/contract';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type ticketMessages from '../../platform/i18n/locales/en/tickets.json';

/** Labels and messages of tickets and flows, from the `tickets` catalogues. */
export const M = catalogue<typeof ticketMessages>('tickets');
export type TicketMessageKey = keyof typeof M;

export function km(lang: Language, key: TicketMessageKey, params?: TextParams): string {
  return tr(lang, M[key], params);
}
