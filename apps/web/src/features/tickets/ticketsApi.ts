import { http } from '../../lib/http.ts';

/** The ticket API as the console uses it (server: apps/server/src/modules/tickets). */
export const TICKETS_URL = '/api/v1/tickets/tickets/';
export const FLOWS_URL = '/api/v1/tickets/flows/';
export const COMMENTS_URL = '/api/v1/tickets/comments/';

export interface Choice {
  value: string;
  label: string;
}
export interface Step {
  approval_level: number;
  state: string;
  status: string;
  assignees: string[];
  assignees_display: string[];
  processor: string | null;
  processor_display: string;
  approval_date: string | null;
}
export interface Ticket {
  id: string;
  title: string;
  serial_num: string;
  type: Choice;
  state: Choice;
  status: Choice;
  approval_step: number;
  applicant: { id: string; name: string };
  process_map: Step[];
  comment: string;
  org_name: string;
  date_created: string;
  date_updated: string;
  [field: string]: unknown;
}
export interface Comment {
  id: string;
  body: string;
  user_display: string;
  date_created: string;
}

/** The typed endpoint of each ticket type (approve lives there). */
export const TYPED_PREFIX: Record<string, string> = {
  apply_asset: 'apply-asset-tickets',
  login_confirm: 'apply-login-tickets',
  login_asset_confirm: 'apply-login-asset-tickets',
  command_confirm: 'apply-command-tickets',
};

/** The console page of a ticket, per type (spec 02, "Tickets children"). */
export function ticketPath(t: { id: string; type: string | Choice }): string {
  const type = typeof t.type === 'string' ? t.type : t.type.value;
  const page =
    {
      apply_asset: 'request-host-perm',
      login_confirm: 'login-confirm',
      login_asset_confirm: 'login-host-confirm',
      command_confirm: 'command-confirm',
    }[type] ?? '';
  return `/tickets/tickets/${page ? `${page}/` : ''}${t.id}`;
}

const typed = (t: Ticket) => `/api/v1/tickets/${TYPED_PREFIX[t.type.value] ?? 'tickets'}/${t.id}`;

export const fetchTicket = (id: string) => http.get<Ticket>(`${TICKETS_URL}${id}/`);
export const approveTicket = (t: Ticket, edits: object = {}) => http.put(`${typed(t)}/approve/`, edits);
export const rejectTicket = (t: Ticket) => http.put(`${typed(t)}/reject/`, {});
export const closeTicket = (t: Ticket) => http.put(`${typed(t)}/close/`, {});
export const bulkAct = (type: string, action: 'approve' | 'reject', ids: string[]) =>
  http.put(`/api/v1/tickets/${TYPED_PREFIX[type]}/bulk/`, { tickets: ids }, { params: { action } });
export const fetchComments = (id: string) => http.get<Comment[]>(COMMENTS_URL, { params: { ticket_id: id } });
export const addComment = (ticket: string, body: string) => http.post(COMMENTS_URL, { ticket, body });
export const openAssetRequest = (body: Record<string, unknown>) =>
  http.post<Ticket>('/api/v1/tickets/apply-asset-tickets/open/', body);

/** Tag colours of the ticket states (the reference: approved green, rejected red, the rest waiting). */
export const STATE_COLOR: Record<string, string> = {
  pending: 'warning',
  reopen: 'warning',
  approved: 'success',
  rejected: 'error',
  closed: 'default',
};

/** Tag colours of the ticket statuses: open (still in progress) or closed (finished). */
export const STATUS_COLOR: Record<string, string> = {
  open: 'processing',
  closed: 'default',
};
