import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { Bus } from '../../platform/bus/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso, toBool, type Bool } from '../../platform/db/schema.ts';
import type { SecretBox } from '../../platform/crypto/secretBox.ts';
import { translator } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type notificationsMessages from '../../platform/i18n/locales/en/notifications.json';
import { escapeHtml } from './sanitize.ts';
import { usersByLanguage } from './userLanguage.ts';

/**
 * Site messages: one content row (per language, for the server's own texts), one row per recipient. Every change of a
 * user's unread count is announced on the bus, so the WebSocket of any instance can push it.
 */
export const SITE_MSG_CHANNEL = 'notifications.site_msg';

/** Bus message: these users' unread counts changed (`all`: everyone's, after a broadcast). */
export interface UnreadChanged {
  user_ids?: string[];
  all?: boolean;
}

/** A message's text; `message` is HTML, sanitised when read. */
export interface SiteMessageText {
  subject: string;
  message: string;
}

export interface SendSiteMessage {
  /**
   * The text as a person wrote it, or the server's text rendered per language: called once for
   * each language among the recipients (their stored language, `userLanguage.ts`), each language
   * group getting its own content row.
   */
  text: SiteMessageText | ((lang: Language) => SiteMessageText);
  userIds: string[];
  senderId?: string | null;
  /** Every active user receives it. */
  isBroadcast?: boolean;
  /**
   * The message holds a secret (an account backup's password half): its HTML is stored encrypted
   * with this box and opened only when its recipient reads it (`openMessage`).
   */
  sealWith?: SecretBox;
}

const CHUNK = 500;
const t = translator(catalogue<typeof notificationsMessages>('notifications'));

export async function announceUnreadChanged(bus: Bus, change: UnreadChanged): Promise<void> {
  await bus.publish(SITE_MSG_CHANNEL, change);
}

async function recipients(db: Kysely<DB>, input: SendSiteMessage): Promise<{ text: SiteMessageText; ids: string[] }[]> {
  const { text } = input;
  let ids = [...new Set(input.userIds)];
  if (input.isBroadcast) {
    ids = (await db.selectFrom('users_user').select('id').where('is_active', '=', true).execute()).map((r) => r.id);
  }
  if (!ids.length) return [];
  if (typeof text !== 'function') return [{ text, ids }];
  return [...(await usersByLanguage(db, ids))].map(([lang, group]) => ({ text: text(lang), ids: group }));
}

/** Stores the message for its recipients and announces their new counts; returns the recipient count. */
export async function sendSiteMessage(db: Kysely<DB>, bus: Bus, input: SendSiteMessage): Promise<number> {
  const groups = await recipients(db, input);
  const userIds = groups.flatMap((g) => g.ids);
  if (!userIds.length) return 0;
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    for (const { text, ids } of groups) {
      const contentId = randomUUID();
      await trx
        .insertInto('notifications_messagecontent')
        .values({
          id: contentId,
          subject: text.subject,
          message: input.sealWith ? input.sealWith.encrypt(text.message) : text.message,
          sealed: Boolean(input.sealWith),
          sender_id: input.senderId ?? null,
          is_broadcast: Boolean(input.isBroadcast),
          date_created: now,
          date_updated: now,
        })
        .execute();
      for (let i = 0; i < ids.length; i += CHUNK) {
        const rows = ids.slice(i, i + CHUNK).map((user_id) => ({
          id: randomUUID(),
          content_id: contentId,
          user_id,
          has_read: false,
          read_at: null,
          date_created: now,
          date_updated: now,
        }));
        await trx.insertInto('notifications_sitemessage').values(rows).execute();
      }
    }
  });
  await announceUnreadChanged(bus, input.isBroadcast ? { all: true } : { user_ids: userIds });
  return userIds.length;
}

/**
 * A stored message's HTML as its recipient reads it: a sealed one opened with the secret box. One
 * that cannot be opened (the secret key was replaced) says so instead of showing ciphertext.
 */
export function openMessage(box: SecretBox, row: { message: string; sealed: Bool }, lang: Language): string {
  if (!toBool(row.sealed)) return row.message;
  try {
    return box.decrypt(row.message);
  } catch {
    return escapeHtml(t(lang, 'message_unreadable'));
  }
}

export async function unreadTotal(db: Kysely<DB>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications_sitemessage')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('has_read', '=', false)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks the user's messages read (the given ids, or all); returns how many changed. */
export async function markRead(db: Kysely<DB>, bus: Bus, userId: string, ids?: string[]): Promise<number> {
  if (ids && !ids.length) return 0;
  const now = nowIso();
  let q = db
    .updateTable('notifications_sitemessage')
    .set({ has_read: true, read_at: now, date_updated: now })
    .where('user_id', '=', userId)
    .where('has_read', '=', false);
  if (ids) q = q.where('id', 'in', ids);
  const changed = Number((await q.executeTakeFirst()).numUpdatedRows);
  if (changed) await announceUnreadChanged(bus, { user_ids: [userId] });
  return changed;
}
