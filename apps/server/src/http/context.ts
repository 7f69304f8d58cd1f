import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { Config } from '../platform/config.ts';
import type { Cache } from '../platform/cache/index.ts';
import type { Bus } from '../platform/bus/index.ts';
import type { SecretBox } from '../platform/crypto/secretBox.ts';
import type { Database } from '../platform/db/database.ts';
import type { DB, UserTable } from '../platform/db/schema.ts';
import type { LoadedSession } from './session.ts';
import type { SessionStore } from './session.ts';

/**
 * What every request handler can reach: the platform services (docs/architecture.md, "Layers").
 * Modules add theirs by declaration merging (`settings`: `modules/settings/store.ts`).
 */
export interface AppDeps {
  config: Config;
  database: Database;
  cache: Cache;
  sessions: SessionStore;
  /** Pub/sub between instances (site-message counts, ...). */
  bus: Bus;
  /** Encryption of secrets at rest. */
  secretBox: SecretBox;
}

export type AuthUser = Omit<UserTable, 'password'> & {
  /** The stored language ('' when never seen), read with the user so remembering it costs a write only on change. */
  lang?: string;
};

export interface OrgContext {
  id: string;
  name: string;
  is_root: boolean;
  is_default: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    lang: Language;
    /** IANA time zone from `X-TZ`, else UTC. */
    tz: string;
    /** Request-scoped database handle; counts its queries for the SQL-count header. */
    db: Kysely<DB>;
    queryCount: { count: number };
    user: AuthUser | null;
    session: LoadedSession | null;
    authMethod: 'session' | 'bearer' | 'signature' | 'token' | null;
    org: OrgContext;
  }
  interface FastifyContextConfig {
    /** Reachable without credentials. */
    public?: boolean;
  }
}
