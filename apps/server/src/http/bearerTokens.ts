import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema.ts';
import type { AppDeps } from './context.ts';

/**
 * Bearer tokens (`POST /api/v1/authentication/auth/`) live in the cache, as in the contract, under
 * `token:<token>` with their user and issue time. A user's tokens end together: a revocation mark
 * `token_revoked:<user id>` holds the time before which every token of the user is void (kept
 * longer than a token can live), so a password change, an admin reset or a deactivation ends them on
 * every instance, and a reactivation does not revive them.
 */

interface StoredToken {
  user: string;
  /** Epoch ms of issue. */
  at: number;
}

/**
 * How long a revocation mark is kept: longer than any token lives. A constant rather than
 * TOKEN_EXPIRATION, which can be raised after the mark is written, and because this runs inside
 * write transactions where reading the settings would wait on the transaction's own connection.
 */
const REVOCATION_TTL_SECONDS = 366 * 86400;

const tokenKey = (token: string) => `token:${token}`;
const revokedKey = (userId: string) => `token_revoked:${userId}`;

/** A fresh token for the user (a sign-in never reuses an earlier one). */
export async function issueToken(deps: AppDeps, userId: string, ttlSeconds: number): Promise<string> {
  const token = randomUUID();
  await deps.cache.set(tokenKey(token), { user: userId, at: Date.now() } satisfies StoredToken, ttlSeconds);
  return token;
}

/** The user id a live token belongs to, or undefined (unknown, expired or revoked). */
export async function tokenUser(deps: AppDeps, token: string): Promise<string | undefined> {
  const stored = await deps.cache.get<StoredToken>(tokenKey(token));
  if (!stored || typeof stored !== 'object' || typeof stored.user !== 'string') return undefined;
  const revoked = await deps.cache.get<number>(revokedKey(stored.user));
  if (revoked !== undefined && stored.at <= revoked) return undefined;
  return stored.user;
}

/** Ends every bearer token of the user issued until now. */
export async function revokeTokens(deps: AppDeps, userId: string): Promise<void> {
  await deps.cache.set(revokedKey(userId), Date.now(), REVOCATION_TTL_SECONDS);
}

/**
 * Ends a user's credentials: every bearer token and every login session except `keepSessionId`
 * (the session that changed its own password stays). `db` may be a transaction's handle.
 */
export async function endCredentials(
  deps: AppDeps,
  db: Kysely<DB>,
  userId: string,
  keepSessionId?: string,
): Promise<void> {
  let q = db.deleteFrom('auth_session').where('user_id', '=', userId);
  if (keepSessionId) q = q.where('id', '!=', keepSessionId);
  await q.execute();
  await revokeTokens(deps, userId);
}
