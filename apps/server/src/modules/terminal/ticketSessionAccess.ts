/**
 * The port through which a ticket's reviewer reaches the session the ticket is about (the tickets
 * module registers it, as `gateway/commandReview.ts`): "may this user watch session S through
 * ticket T" — the current-step assignee of the login-asset or command ticket linked to S. The
 * monitor socket (`monitorSocket.ts`, `?ticket_id=`) lets such a user watch read-only without the
 * terminal permissions. Without the port nobody passes this way.
 */
export interface TicketSessionQuery {
  userId: string;
  sessionId: string;
  ticketId: string;
}

export type TicketSessionAccess = (q: TicketSessionQuery) => Promise<boolean>;

let access: TicketSessionAccess | undefined;

/** Registers (or, with undefined, removes) the check. */
export function setTicketSessionAccess(fn: TicketSessionAccess | undefined): void {
  access = fn;
}
export const ticketSessionAccess = (): TicketSessionAccess | undefined => access;

/** Whether the user reaches the session through the ticket; false without a port or a ticket id. */
export async function mayReachThroughTicket(q: TicketSessionQuery): Promise<boolean> {
  if (!access || !q.ticketId) return false;
  return access(q);
}
