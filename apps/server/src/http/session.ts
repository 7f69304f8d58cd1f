import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema.ts';
import { nowIso } from '../platform/db/schema.ts';
import { randomToken } from '../platform/crypto/password.ts';

/** What a login session remembers (session keys that Gatehouse uses). */
export interface SessionData {
  csrf: string;
  auto_login: boolean;
  login_time: string;
  oid?: string;
  /** Re-verification: level reached (1 relogin, 2 password, 3 mfa) and when, epoch seconds. */
  confirm_level?: number;
  confirm_time?: number;
  /** What the identity provider's sign-out needs (the OpenID Connect ID token, `sso/ssoLogout.ts`). */
  sso?: Record<string, string>;
}

/** Where a sign-in came from, kept with the session for the online user sessions list. */
export interface SessionOrigin {
  ip: string;
  city: string;
  user_agent: string;
  /** W web, T terminal, U unknown. */
  type: string;
  backend: string;
}

const NO_ORIGIN: SessionOrigin = { ip: '', city: '', user_agent: '', type: 'W', backend: '' };

export interface LoadedSession {
  /** Hash of the cookie value: the database never holds a usable session key. */
  id: string;
  userId: string;
  data: SessionData;
  expireAt: Date;
  lastActive: Date;
}

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Activity refreshes the sliding expiry at most once a minute, to spare a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

/** Login sessions, stored in the database so they survive restarts and are shared by instances. */
export class SessionStore {
  constructor(private readonly db: Kysely<DB>) {}

  async create(
    userId: string,
    data: SessionData,
    ttlSeconds: number,
    origin: SessionOrigin = NO_ORIGIN,
  ): Promise<{ key: string; session: LoadedSession }> {
    const key = randomToken(32);
    const now = new Date();
    const expireAt = new Date(now.getTime() + ttlSeconds * 1000);
    const id = hashKey(key);
    await this.db
      .insertInto('auth_session')
      .values({
        id,
        user_id: userId,
        data: JSON.stringify(data),
        expire_at: expireAt.toISOString(),
        date_created: now.toISOString(),
        last_active: now.toISOString(),
        ip: origin.ip.slice(0, 64),
        city: origin.city.slice(0, 254),
        user_agent: origin.user_agent.slice(0, 254),
        type: origin.type.slice(0, 2),
        backend: origin.backend.slice(0, 32),
      })
      .execute();
    return { key, session: { id, userId, data, expireAt, lastActive: now } };
  }

  async load(key: string): Promise<LoadedSession | null> {
    const row = await this.db.selectFrom('auth_session').selectAll().where('id', '=', hashKey(key)).executeTakeFirst();
    if (!row) return null;
    const expireAt = new Date(row.expire_at);
    if (expireAt.getTime() <= Date.now()) {
      await this.db.deleteFrom('auth_session').where('id', '=', row.id).execute();
      return null;
    }
    return {
      id: row.id,
      userId: row.user_id,
      data: JSON.parse(row.data) as SessionData,
      expireAt,
      lastActive: new Date(row.last_active),
    };
  }

  /** Slides the expiry forward on activity. */
  async touch(session: LoadedSession, ttlSeconds: number): Promise<void> {
    const now = Date.now();
    if (now - session.lastActive.getTime() < TOUCH_INTERVAL_MS) return;
    session.lastActive = new Date(now);
    session.expireAt = new Date(now + ttlSeconds * 1000);
    await this.db
      .updateTable('auth_session')
      .set({ last_active: session.lastActive.toISOString(), expire_at: session.expireAt.toISOString() })
      .where('id', '=', session.id)
      .execute();
  }

  async update(session: LoadedSession, patch: Partial<SessionData>): Promise<void> {
    session.data = { ...session.data, ...patch };
    await this.db
      .updateTable('auth_session')
      .set({ data: JSON.stringify(session.data) })
      .where('id', '=', session.id)
      .execute();
  }

  async destroy(sessionId: string): Promise<void> {
    await this.db.deleteFrom('auth_session').where('id', '=', sessionId).execute();
  }

  async destroyForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('auth_session').where('user_id', '=', userId).execute();
  }

  async purgeExpired(): Promise<number> {
    const r = await this.db.deleteFrom('auth_session').where('expire_at', '<=', nowIso()).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
