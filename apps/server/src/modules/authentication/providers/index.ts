import type { FastifyRequest } from 'fastify';
import type { ExternalProfile } from './externalUsers.ts';
import { ldapProvider } from './ldap.ts';
import { radiusProvider } from './radius.ts';

/**
 * Identity providers of the password sign-in (ARCHITECTURE §6c): each turns a username and password
 * into a profile, or refuses them. The common path (passwordLogin.ts) finds or creates the user
 * (externalUsers.ts) and ends the sign-in like a local one: same locks, login ACLs, MFA and log.
 */
export type ProviderOutcome =
  | { ok: true; profile: ExternalProfile }
  /** Wrong password or unknown user: counted toward the lock like a local failure. */
  | { ok: false; error: 'password_failed' }
  /** The provider could not answer (directory down, timed out): not the user's fault, not counted. */
  | { ok: false; error: 'unavailable'; msg: string };

export interface IdentityProvider {
  /** The users' `source` this provider owns, also the login log's backend. */
  readonly source: string;
  enabled(req: FastifyRequest): Promise<boolean>;
  authenticate(req: FastifyRequest, username: string, password: string): Promise<ProviderOutcome>;
}

/** In the order they are asked about a username not known here (the original's backend order). */
const PROVIDERS: readonly IdentityProvider[] = [ldapProvider, radiusProvider];

/**
 * The providers that may check this sign-in: the one owning the user's source, or, for a username
 * not known here, every enabled one in order (the first that vouches wins). Local users (source
 * `local`) have none: the local password check applies.
 */
export async function providersFor(
  req: FastifyRequest,
  user: { source: string } | undefined,
): Promise<IdentityProvider[]> {
  const out: IdentityProvider[] = [];
  for (const p of PROVIDERS) {
    if (user && user.source !== p.source) continue;
    if (await p.enabled(req)) out.push(p);
  }
  return out;
}

/** The provider owning a source, enabled or not (native SSH, password pages). */
export function providerOfSource(source: string): IdentityProvider | undefined {
  return PROVIDERS.find((p) => p.source === source);
}
