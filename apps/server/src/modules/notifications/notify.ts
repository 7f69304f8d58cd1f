import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { Bus } from '../../platform/bus/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import { queueMails, type QueuedMail } from './mail/outbox.ts';
import type { MessageType } from './messageTypes.ts';
import { sendSiteMessage, type SiteMessageText } from './siteMessages.ts';
import { subscribedUsers, subscriptionOf } from './subscriptions.ts';
import { usersByLanguage } from './userLanguage.ts';

/**
 * The one way the server tells users something (docs/notifications.md): a message of a declared
 * type (`messageTypes.ts`) goes to the users it is addressed to and to the type's subscribers,
 * by each backend of the type's subscription (`subscriptions.ts`): a site message, a mail through
 * the outbox (`mail/outbox.ts`) to each recipient with an address, rendered in the recipient's
 * language. Never fails the action that caused it: a backend's failure is logged and the others
 * still go out.
 */
export interface NotifyDeps {
  db: Kysely<DB>;
  bus: Bus;
  settings: { valueOf(name: string): Promise<unknown> };
  log: { error(obj: object, msg: string): void };
}

export interface Notice {
  type: MessageType;
  userIds: readonly string[];
  /** Subject and HTML body in a language; links may be console paths (`/ui/...`). */
  text: (lang: Language) => SiteMessageText;
}

/** Console paths made absolute with SITE_URL: a mail is read outside the console. */
export function absoluteLinks(html: string, siteUrl: string): string {
  const base = siteUrl.replace(/\/+$/, '');
  return html.replace(/href="\/(?!\/)/g, `href="${base}/`);
}

/**
 * The notice's mails to those of `ids` with an address, each in its user's language (no
 * subscribers added): for a sender that mails only the users it names, such as an account
 * backup's recipients (automations/backupRun.ts).
 */
export async function mailsFor(
  deps: Pick<NotifyDeps, 'db' | 'settings'>,
  notice: { type: string; text: Notice['text'] },
  ids: readonly string[],
): Promise<QueuedMail[]> {
  const siteUrl = String((await deps.settings.valueOf('SITE_URL')) ?? '');
  const emails = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await deps.db
      .selectFrom('users_user')
      .select(['id', 'email'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) if (r.email) emails.set(r.id, r.email);
  }
  const out: QueuedMail[] = [];
  for (const [lang, group] of await usersByLanguage(deps.db, [...emails.keys()])) {
    const text = notice.text(lang);
    const html = absoluteLinks(text.message, siteUrl);
    for (const id of group) out.push({ to: emails.get(id)!, subject: text.subject, html, type: notice.type });
  }
  return out;
}

/** Sends the notice; answers how many users it went to (0 when its subscription has no backend). */
export async function notify(deps: NotifyDeps, notice: Notice): Promise<number> {
  try {
    const sub = await subscriptionOf(deps.db, notice.type);
    const ids = [...new Set([...notice.userIds, ...(await subscribedUsers(deps.db, sub))])];
    if (!ids.length || !sub.receive_backends.length) return 0;
    const backends = new Set(sub.receive_backends);
    if (backends.has('site_msg'))
      await sendSiteMessage(deps.db, deps.bus, { text: notice.text, userIds: ids }).catch((e: Error) =>
        deps.log.error({ type: notice.type, err: e.message }, 'site message not sent'),
      );
    if (backends.has('email'))
      await queueMails(deps, await mailsFor(deps, notice, ids)).catch((e: Error) =>
        deps.log.error({ type: notice.type, err: e.message }, 'mail not queued'),
      );
    return ids.length;
  } catch (e) {
    deps.log.error({ type: notice.type, err: (e as Error).message }, 'notice not sent');
    return 0;
  }
}
