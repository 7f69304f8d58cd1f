import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import type { AuthUser } from './context.ts';

/**
 * Authentication classes beyond Bearer and the session cookie, registered by the modules that own
 * their credentials (`http/` may not import modules: docs/architecture.md, "Layers"): the
 * authentication module registers `Signature` (API keys, HTTP signatures) and `Token` (private
 * tokens). `identify.ts` hands a request whose `Authorization` names a registered scheme to it.
 */
export type CredentialResult = { user: AuthUser } | { error: string };

export interface CredentialScheme {
  /** The `Authorization` scheme word, compared without case (`Signature`, `Token`). */
  scheme: string;
  /** What `req.authMethod` becomes on success. */
  method: 'signature' | 'token';
  /** `credentials` is the header after the scheme word. */
  authenticate(req: FastifyRequest, credentials: string): Promise<CredentialResult>;
}

const registry = new WeakMap<FastifyInstance, CredentialScheme[]>();

export function registerCredentialScheme(app: FastifyInstance, scheme: CredentialScheme): void {
  const list = registry.get(app) ?? [];
  list.push(scheme);
  registry.set(app, list);
}

/** The scheme the `Authorization` header names, when one is registered. */
export function credentialSchemeFor(
  app: FastifyInstance,
  authorization: string,
): { scheme: CredentialScheme; credentials: string } | undefined {
  const match = /^([A-Za-z]+)\s+([\s\S]*)$/.exec(authorization);
  if (!match) return undefined;
  const word = match[1]!.toLowerCase();
  const scheme = (registry.get(app) ?? []).find((s) => s.scheme.toLowerCase() === word);
  return scheme ? { scheme, credentials: match[2]!.trim() } : undefined;
}

/** Runs the scheme: the user, or a 401 with the scheme's reason (in the request's language). */
export async function identifyWithScheme(
  req: FastifyRequest,
  scheme: CredentialScheme,
  credentials: string,
): Promise<AuthUser> {
  const result = await scheme.authenticate(req, credentials);
  if ('user' in result) return result.user;
  throw new ApiError(
    401,
    { detail: result.error, code: 'authentication_failed' },
    { 'WWW-Authenticate': 'Bearer realm="api"' },
  );
}
