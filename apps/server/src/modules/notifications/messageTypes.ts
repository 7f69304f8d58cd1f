import type { I18nText } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type notificationsMessages from '../../platform/i18n/locales/en/notifications.json';

const M = catalogue<typeof notificationsMessages>('notifications');

/**
 * Every kind of message the server sends (`notify.ts`), grouped as the subscription page shows
 * them (`system-msg-subscription/`), with the backends a type goes out by until an administrator
 * changes its subscription (`subscriptions.ts`).
 */
/** SMS carries verification codes only (sms/smsSender.ts), as in the original: not a backend of notices. */
export const BACKENDS = ['site_msg', 'email'] as const;
export type Backend = (typeof BACKENDS)[number];

export const BACKEND_LABELS: Record<Backend, I18nText> = {
  site_msg: M.backend_site_msg,
  email: M.backend_email,
};

interface MessageTypeDef {
  category: 'accounts' | 'perms' | 'tickets' | 'terminal';
  label: I18nText;
  backends: readonly Backend[];
}

export const MESSAGE_TYPES = {
  user_created: { category: 'accounts', label: M.type_user_created, backends: ['email'] },
  password_changed: { category: 'accounts', label: M.type_password_changed, backends: ['site_msg', 'email'] },
  mfa_bound: { category: 'accounts', label: M.type_mfa_bound, backends: ['site_msg', 'email'] },
  mfa_removed: { category: 'accounts', label: M.type_mfa_removed, backends: ['site_msg', 'email'] },
  account_locked: { category: 'accounts', label: M.type_account_locked, backends: ['site_msg', 'email'] },
  perm_expiring: { category: 'perms', label: M.type_perm_expiring, backends: ['site_msg', 'email'] },
  ticket_assigned: { category: 'tickets', label: M.type_ticket_assigned, backends: ['site_msg', 'email'] },
  ticket_outcome: { category: 'tickets', label: M.type_ticket_outcome, backends: ['site_msg', 'email'] },
  command_warning: { category: 'terminal', label: M.type_command_warning, backends: ['site_msg', 'email'] },
  automation_result: { category: 'accounts', label: M.type_automation_result, backends: ['site_msg', 'email'] },
} as const satisfies Record<string, MessageTypeDef>;

export type MessageType = keyof typeof MESSAGE_TYPES;

export const CATEGORY_LABELS: Record<MessageTypeDef['category'], I18nText> = {
  accounts: M.category_accounts,
  perms: M.category_perms,
  tickets: M.category_tickets,
  terminal: M.category_terminal,
};

export const isMessageType = (s: string): s is MessageType => Object.hasOwn(MESSAGE_TYPES, s);
