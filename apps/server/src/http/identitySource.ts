import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../platform/db/schema.ts';
import type { AuthUser } from './context.ts';

/** The security settings that bound a login session (`sessionLimits.ts`). */
export interface SessionSettings {
  /** `SECURITY_MAX_SESSION_TIME`: hours after login; 0 = no limit. */
  maxSessionHours: number;
  /** `SECURITY_MAX_IDLE_TIME`: minutes without a request; 0 = no limit. */
  maxIdleMinutes: number;
  /** `SESSION_COOKIE_AGE`: the sliding lifetime of the session cookie and row. */
  cookieAgeSeconds: number;
}

/**
 * What identifying a request needs from the modules. `http/` sits below `modules/` and may not
 * import them (docs/architecture.md, "Layers"), so the users and settings modules register this
 * at startup (`modules/users/identitySource.ts`, called from `modules/index.ts`).
 */
export interface IdentitySource {
  /** The user behind a session or token, when that user may still sign in. */
  findActiveUser(db: Kysely<DB>, id: string): Promise<AuthUser | undefined>;
  /** Stores the language a signed-in request named as the user's (a write only when it changes). */
  rememberLanguage(db: Kysely<DB>, user: AuthUser, lang: Language): Promise<void>;
  sessionSettings(): Promise<SessionSettings>;
  /** Display name of the global organisation. */
  globalOrgName(): Promise<string>;
}

const sources = new WeakMap<FastifyInstance, IdentitySource>();

export function registerIdentitySource(app: FastifyInstance, source: IdentitySource): void {
  sources.set(app, source);
}

export function identitySourceOf(app: FastifyInstance): IdentitySource {
  const source = sources.get(app);
  if (!source) throw new Error('No identity source registered: modules/index.ts registers it at startup');
  return source;
}
