import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { BACKENDS, MESSAGE_TYPES, type Backend, type MessageType } from './messageTypes.ts';

/**
 * Who receives a message type by which backends (`notifications_systemmsgsubscription`, migration
 * 1210): the backends it goes out by, and users and groups who receive every message of the type
 * besides the ones it is addressed to. A type without a row has its declared backends and no
 * extra receivers. Every sender reads it through `notify.ts`.
 */
export interface Subscription {
  message_type: MessageType;
  users: string[];
  groups: string[];
  receive_backends: Backend[];
}

function list(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export async function subscriptions(db: Kysely<DB>): Promise<Map<MessageType, Subscription>> {
  const rows = await db.selectFrom('notifications_systemmsgsubscription').selectAll().execute();
  const stored = new Map(rows.map((r) => [r.message_type, r]));
  const out = new Map<MessageType, Subscription>();
  for (const [type, def] of Object.entries(MESSAGE_TYPES) as [MessageType, (typeof MESSAGE_TYPES)[MessageType]][]) {
    const r = stored.get(type);
    out.set(type, {
      message_type: type,
      users: r ? list(r.users) : [],
      groups: r ? list(r.groups) : [],
      receive_backends: r
        ? (list(r.receive_backends).filter((b) => (BACKENDS as readonly string[]).includes(b)) as Backend[])
        : [...def.backends],
    });
  }
  return out;
}

export async function subscriptionOf(db: Kysely<DB>, type: MessageType): Promise<Subscription> {
  const row = await db
    .selectFrom('notifications_systemmsgsubscription')
    .selectAll()
    .where('message_type', '=', type)
    .executeTakeFirst();
  if (!row) return { message_type: type, users: [], groups: [], receive_backends: [...MESSAGE_TYPES[type].backends] };
  return {
    message_type: type,
    users: list(row.users),
    groups: list(row.groups),
    receive_backends: list(row.receive_backends).filter((b) =>
      (BACKENDS as readonly string[]).includes(b),
    ) as Backend[],
  };
}

/** The subscription's users and the members of its groups (active users only). */
export async function subscribedUsers(db: Kysely<DB>, s: Subscription): Promise<string[]> {
  if (!s.users.length && !s.groups.length) return [];
  const viaGroups = s.groups.length
    ? (await db.selectFrom('users_user_groups').select('user_id').where('usergroup_id', 'in', s.groups).execute()).map(
        (r) => r.user_id,
      )
    : [];
  const ids = [...new Set([...s.users, ...viaGroups])];
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('users_user')
    .select('id')
    .where('id', 'in', ids)
    .where('is_active', '=', true)
    .execute();
  return rows.map((r) => r.id);
}

export async function saveSubscription(db: Kysely<DB>, s: Subscription): Promise<void> {
  const values = {
    users: JSON.stringify(s.users),
    groups: JSON.stringify(s.groups),
    receive_backends: JSON.stringify(s.receive_backends),
    date_updated: new Date().toISOString(),
  };
  await db
    .insertInto('notifications_systemmsgsubscription')
    .values({ message_type: s.message_type, ...values })
    .onConflict((oc) => oc.column('message_type').doUpdateSet(values))
    .execute();
}
