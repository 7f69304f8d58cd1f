import { f } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { TICKET_STATES, TICKET_TYPES } from './stateMachine.ts';
import { M, type TicketMessageKey } from './ticketMessages.ts';

/**
 * The ticket list's fields as the resource framework describes them, for `OPTIONS` (the console's
 * list columns, filters and tags in the reader's language). Tickets are not a framework resource
 * (who sees one is "applicant or assignee", and writes go through the state machine), so this
 * declaration serves the metadata only and is not registered.
 */
const choices = (prefix: string, values: readonly string[]) =>
  values.map((value) => ({ value, label: M[`${prefix}_${value}` as TicketMessageKey] }));

export const ticketListDef: ResourceDef = {
  model: 'ticket',
  app: 'tickets',
  url: '/api/v1/tickets/tickets/',
  table: 'tickets_ticket',
  label: M.model_ticket,
  orgScoped: false,
  defaultOrder: ['-date_created'],
  fields: {
    id: f.id(),
    title: f.string(M.field_title, { readOnly: true, search: true, filter: true }),
    serial_num: f.string(M.field_serial_num, { readOnly: true, search: true }),
    type: f.choice(M.field_type, choices('type', TICKET_TYPES), { readOnly: true, filter: true }),
    state: f.choice(M.field_state, choices('state', TICKET_STATES), { readOnly: true, filter: true }),
    status: f.choice(M.field_status, choices('status', ['open', 'closed']), { readOnly: true, filter: true }),
    applicant: f.json(M.field_applicant, { readOnly: true }),
    approval_step: f.int(M.field_approval_step, { readOnly: true }),
    org_name: f.string(M.field_org_name, { readOnly: true }),
    comment: f.text(M.field_comment, { readOnly: true }),
    process_map: f.json(M.field_process_map, { readOnly: true }),
    date_created: f.datetime(M.field_date_created, { readOnly: true, order: true }),
    date_updated: f.datetime(M.field_date_updated, { readOnly: true, order: true }),
  },
};
