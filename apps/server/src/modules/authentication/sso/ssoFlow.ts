import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { browserId, ensureBrowserId } from '../browserKeys.ts';
import { safeNext } from '../passwordLogin.ts';

/**
 * A sign-in through an identity provider between the redirect to it and its callback: the
 * `state` sent to the provider names it in the cache (600 s), bound to the browser that started
 * it (the HttpOnly `jms_gh_bid` cookie, SameSite=Lax so the provider's top-level redirect back
 * carries it), used once. A callback from another browser (login CSRF: an attacker's code
 * pushed into a victim's browser), a replayed callback or an unknown state is refused.
 */
export interface SsoFlow {
  provider: string;
  /** SHA-256 of the browser id that started the sign-in. */
  bid: string;
  /** Where to go afterwards, already made safe (safeNext). */
  next: string;
  /** PKCE code verifier and OpenID nonce, when used. */
  verifier?: string;
  nonce?: string;
  /** The SAML AuthnRequest's ID: the response must answer it (InResponseTo). */
  requestId?: string;
  /** Binding a messenger to a signed-in user (im/imRoutes.ts): that user. */
  userId?: string;
  at: number;
}

export const SSO_FLOW_TTL_SECONDS = 600;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const flowKey = (state: string) => `sso:${sha256(state)}`;

/** Starts a flow: returns the `state` to send to the provider. */
export async function beginSso(
  req: FastifyRequest,
  reply: FastifyReply,
  provider: string,
  extra: Partial<Pick<SsoFlow, 'verifier' | 'nonce' | 'requestId' | 'userId' | 'next'>> = {},
): Promise<string> {
  const bid = ensureBrowserId(req, reply);
  const state = randomBytes(24).toString('base64url');
  const next = safeNext((req.query as { next?: unknown }).next);
  const flow: SsoFlow = { provider, bid: sha256(bid), ...extra, next: extra.next ?? next, at: Date.now() };
  await req.server.deps.cache.set(flowKey(state), flow, SSO_FLOW_TTL_SECONDS);
  return state;
}

/**
 * The flow a callback's `state` names, once, for the browser that started it; else undefined.
 * `sameBrowser: false` for a cross-site POST (the SAML ACS), which the Lax cookie does not reach:
 * there the signed response must answer the flow's own request (saml2/saml2Routes.ts).
 */
export async function takeSso(
  req: FastifyRequest,
  provider: string,
  state: unknown,
  sameBrowser = true,
): Promise<SsoFlow | undefined> {
  if (typeof state !== 'string' || !state || state.length > 256) return undefined;
  const { cache } = req.server.deps;
  // The atomic use mark: of two concurrent callbacks with one state only the first goes on.
  if ((await cache.incr(`sso_used:${sha256(state)}`, SSO_FLOW_TTL_SECONDS)) !== 1) return undefined;
  const flow = await cache.get<SsoFlow>(flowKey(state));
  await cache.delete(flowKey(state));
  const bid = browserId(req);
  if (!flow || flow.provider !== provider) return undefined;
  if (sameBrowser && (!bid || sha256(bid) !== flow.bid)) return undefined;
  if (Date.now() - flow.at > SSO_FLOW_TTL_SECONDS * 1000) return undefined;
  return flow;
}
