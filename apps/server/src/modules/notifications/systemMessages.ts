import type { FastifyRequest } from 'fastify';
import type { I18nText, Language } from '@gatehouse/contract';
import { escapeHtml } from './sanitize.ts';
import { notify } from './notify.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type notificationsMessages from '../../platform/i18n/locales/en/notifications.json';
const M = catalogue<typeof notificationsMessages>('notifications');

/** Messages the system sends to a user about their own account, in the user's language (not the request's: an administrator may cause them). */
const SYSTEM_MESSAGES = {
  password_changed: {
    subject: M.password_changed_subject,
    message: M.password_changed_message,
  },
  mfa_bound: {
    subject: M.mfa_bound_subject,
    message: M.mfa_bound_message,
  },
  mfa_removed: {
    subject: M.mfa_removed_subject,
    message: M.mfa_removed_message,
  },
  account_locked: {
    subject: M.account_locked_subject,
    message: M.account_locked_message,
  },
} satisfies Record<string, { subject: I18nText; message: I18nText }>;

const WHAT = {
  login: M.login,
  mfa: M.mfa,
};

export type SystemMessageKind = keyof typeof SYSTEM_MESSAGES;

/**
 * Tells one user about their account, by the backends of the kind's subscription (`notify.ts`:
 * a site message, a mail). Never fails the action that caused it.
 */
export async function notifyUser(
  req: FastifyRequest,
  user: { id: string; username: string },
  kind: SystemMessageKind,
  params: Record<string, string | number> & { what?: keyof typeof WHAT } = {},
): Promise<void> {
  const values: Record<string, string> = {
    username: user.username,
    time: new Date().toISOString().replace('T', ' ').slice(0, 19) + ' UTC',
    ip: req.ip,
  };
  for (const [k, v] of Object.entries(params)) if (k !== 'what') values[k] = String(v);
  const tpl = SYSTEM_MESSAGES[kind];
  const render = (lang: Language) => {
    const all = params.what ? { ...values, what: WHAT[params.what][lang] } : values;
    const fill = (text: string, escape: boolean) =>
      text.replace(/\{(\w+)\}/g, (m, n: string) => (n in all ? (escape ? escapeHtml(all[n]!) : all[n]!) : m));
    return { subject: fill(tpl.subject[lang], false), message: fill(tpl.message[lang], true) };
  };
  const { database, bus, settings } = req.server.deps;
  await notify({ db: database.db, bus, settings, log: req.log }, { type: kind, userIds: [user.id], text: render });
}
