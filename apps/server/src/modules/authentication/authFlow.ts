import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { browserId, ensureBrowserId } from './browserKeys.ts';

/**
 * A sign-in between its steps (password checked, MFA pending), for the login page and the token
 * API alike. Kept in the cache for 600 s (AUTH_EXPIRED_SECONDS) under the browser id of the
 * HttpOnly `jms_gh_bid` cookie, so API clients keep it by keeping their cookies.
 */
export interface AuthFlow {
  userId: string;
  username: string;
  /** The MFA step is done for this user. */
  mfaOk: boolean;
  autoLogin: boolean;
  next: string;
  /** Epoch ms when the password was checked. */
  at: number;
  /** The login-confirm ticket this sign-in waits on (loginConfirm.ts). */
  confirmTicketId?: string;
  /** The identity provider that checked the password (`ldap`), for the login log; absent: local. */
  backend?: string;
  /** A provider sign-in's sign-out data, for the session made after the MFA step (sso/ssoFinish.ts). */
  sso?: Record<string, string>;
}

export const AUTH_FLOW_TTL_SECONDS = 600;

const flowKey = (bid: string) => `authflow:${createHash('sha256').update(bid).digest('hex')}`;

export async function saveFlow(req: FastifyRequest, reply: FastifyReply, flow: AuthFlow): Promise<void> {
  const bid = ensureBrowserId(req, reply);
  const left = Math.max(1, AUTH_FLOW_TTL_SECONDS - Math.floor((Date.now() - flow.at) / 1000));
  await req.server.deps.cache.set(flowKey(bid), flow, left);
}

export async function loadFlow(req: FastifyRequest): Promise<AuthFlow | undefined> {
  const bid = browserId(req);
  if (!bid) return undefined;
  const flow = await req.server.deps.cache.get<AuthFlow>(flowKey(bid));
  return flow && Date.now() - flow.at < AUTH_FLOW_TTL_SECONDS * 1000 ? flow : undefined;
}

export async function clearFlow(req: FastifyRequest): Promise<void> {
  const bid = browserId(req);
  if (bid) await req.server.deps.cache.delete(flowKey(bid));
}
