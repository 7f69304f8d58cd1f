/** Tickets, their steps, assignees and comments, and the approval flows (migration 0800). */
export interface TicketTable {
  id: string;
  serial_num: string;
  title: string;
  type: string;
  state: string;
  status: string;
  approval_level: number;
  approval_step: number;
  applicant_id: string | null;
  applicant_display: string;
  comment: string;
  /** JSON: the type's own fields. */
  meta: string;
  rel_snapshot: string;
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
  org_id: string;
}

export interface TicketStepTable {
  id: string;
  ticket_id: string;
  level: number;
  state: string;
  status: string;
  processor_id: string | null;
  processor_display: string;
  approval_date: string | null;
}

export interface TicketsTables {
  tickets_ticket: TicketTable;
  tickets_ticketstep: TicketStepTable;
  tickets_ticketassignee: { id: string; ticket_id: string; level: number; user_id: string; user_display: string };
  tickets_comment: {
    id: string;
    ticket_id: string;
    user_id: string | null;
    user_display: string;
    body: string;
    date_created: string;
    date_updated: string;
  };
  tickets_ticketflow: {
    id: string;
    type: string;
    approval_level: number;
    created_by: string;
    date_created: string;
    date_updated: string;
    org_id: string;
  };
  tickets_approvalrule: { id: string; flow_id: string; level: number; strategy: string; assignees: string };
}
