import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Bus } from '../../platform/bus/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso } from '../../platform/db/schema.ts';

/**
 * Site messages: one content row, one row per recipient. Every change of a
 * user's unread count is announced on the bus, so the WebSocket of any instance can push it.
 */
export const SITE_MSG_CHANNEL = 'notifications.site_msg';

/** Bus message: these users' unread counts changed (`all`: everyone's, after a broadcast). */
export interface UnreadChanged {
  user_ids?: string[];
  all?: boolean;
}

export interface SendSiteMessage {
  subject: string;
  /** HTML; sanitised when read. */
  message: string;
  userIds: string[];
  senderId?: string | null;
  /** Every active user receives it. */
  isBroadcast?: boolean;
}

const CHUNK = 500;

export async function announceUnreadChanged(bus: Bus, change: UnreadChanged): Promise<void> {
  await bus.publish(SITE_MSG_CHANNEL, change);
}

/** Stores the message for its recipients and announces their new counts; returns the recipient count. */
export async function sendSiteMessage(db: Kysely<DB>, bus: Bus, input: SendSiteMessage): Promise<number> {
  let userIds = [...new Set(input.userIds)];
  if (input.isBroadcast) {
    userIds = (await db.selectFrom('users_user').select('id').where('is_active', '=', true).execute()).map((r) => r.id);
  }
  if (!userIds.length) return 0;
  const now = nowIso();
  const contentId = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('notifications_messagecontent')
      .values({
        id: contentId,
        subject: input.subject,
        message: input.message,
        sender_id: input.senderId ?? null,
        is_broadcast: Boolean(input.isBroadcast),
        date_created: now,
        date_updated: now,
      })
      .execute();
    for (let i = 0; i < userIds.length; i += CHUNK) {
      const rows = userIds.slice(i, i + CHUNK).map((user_id) => ({
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
  });
  await announceUnreadChanged(bus, input.isBroadcast ? { all: true } : { user_ids: userIds });
  return userIds.length;
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
