import type { Bool } from '../schema.ts';

/** The mail outbox (migration 1200, modules/notifications/mail/outbox.ts). */
export interface MailOutboxTables {
  notifications_mailoutbox: {
    id: string;
    recipient: string;
    subject: string;
    html: string;
    message_type: string;
    /** pending | sending | sent | failed */
    status: string;
    attempts: number;
    next_attempt_at: string;
    last_error: string;
    instance_id: string | null;
    claimed_at: string | null;
    date_created: string;
    date_sent: string | null;
    /** `html` and `attachment` are sealed by the secret box (a mail carrying a secret). */
    is_sealed: Bool;
    attachment_name: string;
    /** The attachment's bytes in base64 (sealed when `is_sealed`); null once sent. */
    attachment: string | null;
  };
}

/** System message subscriptions (migration 1210, modules/notifications/subscriptions.ts). */
export interface MsgSubscriptionTables {
  notifications_systemmsgsubscription: {
    message_type: string;
    /** JSON list of user ids. */
    users: string;
    /** JSON list of user group ids. */
    groups: string;
    /** JSON list of backend names (`site_msg`, `email`). */
    receive_backends: string;
    date_updated: string;
  };
}
