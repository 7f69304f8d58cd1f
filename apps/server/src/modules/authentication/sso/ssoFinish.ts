import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOGIN_PATH } from '@gatehouse/contract';
import { toBool } from '../../../platform/db/schema.ts';
import { checkLoginAcl } from '../../acls/loginAcl.ts';
import { writeLoginLog } from '../../audits/loginLog.ts';
import { startSession } from '../completeLogin.ts';
import { saveFlow } from '../authFlow.ts';
import { mfaStepFor } from '../mfa/mfaStep.ts';
import { AddressLock, Lockout } from '../lockout.ts';
import type { ExternalProfile } from '../providers/externalUsers.ts';
import { signInExternal } from '../providers/signIn.ts';

/**
 * The end of a sign-in through an identity provider's redirect (OpenID Connect, OAuth2, SAML2,
 * CAS, the messengers' QR pages): the
 * profile becomes a user (providers/signIn.ts: created or found by username, another source's
 * username refused), then the same gates as a password sign-in (address and user lock, active,
 * expired, login ACL), a session and a redirect to the flow's `next`. A refusal is logged with the
 * backend and sends the browser to the login page with `?error=<code>`, which the page explains.
 */

/** Claims (or userinfo fields) mapped by an attribute map `{username, name, email}` → claim names. */
export function mapProfile(
  claims: Record<string, unknown>,
  attrMap: Record<string, string>,
  emailSuffix: string,
): ExternalProfile | undefined {
  const pick = (field: string): string => {
    const v = claims[attrMap[field] ?? field];
    return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  };
  const username = pick('username');
  if (!username) return undefined;
  const email = pick('email') || (username.includes('@') ? username : `${username}@${emailSuffix}`);
  return { username, name: pick('name') || username, email };
}

export type SsoRefusal =
  | 'sso_failed'
  | 'not_bound'
  | 'user_not_exist'
  | 'user_invalid'
  | 'user_inactive'
  | 'user_expired'
  | 'acl_not_allow'
  | 'block_login'
  | 'block_ip';

/** Logs a refused sign-in and sends the browser back to the login page with the reason's code. */
export async function refuseSso(
  req: FastifyRequest,
  reply: FastifyReply,
  backend: string,
  error: SsoRefusal,
  detail: { username?: string; reason?: string } = {},
): Promise<FastifyReply> {
  await writeLoginLog(req, {
    username: detail.username || '',
    status: false,
    reason: detail.reason ?? error,
    mfa: 2,
    backend,
  });
  return reply.redirect(`${LOGIN_PATH}?error=${error}`);
}

/** How the profile becomes a user: by username (providers/signIn.ts) unless a provider has its own way (im/). */
export type SsoResolver = (
  req: FastifyRequest,
  profile: ExternalProfile,
  backend: string,
) => Promise<{ ok: true; user: SignedUser } | { ok: false; error: SsoRefusal }>;
type SignedUser = Extract<Awaited<ReturnType<typeof signInExternal>>, { ok: true }>['user'];

export async function finishSso(
  req: FastifyRequest,
  reply: FastifyReply,
  backend: string,
  profile: ExternalProfile,
  next: string,
  sso?: Record<string, string>,
  resolve: SsoResolver = signInExternal,
): Promise<FastifyReply> {
  const { cache } = req.server.deps;
  const refuse = (error: SsoRefusal) => refuseSso(req, reply, backend, error, { username: profile.username });
  if (await new AddressLock(cache).isBlocked(req.ip)) return refuse('block_ip');
  if (await new Lockout(cache).isBlocked(profile.username)) return refuse('block_login');
  const signed = await resolve(req, profile, backend);
  if (!signed.ok) return refuse(signed.error);
  const user = signed.user;
  if (!toBool(user.is_active)) return refuse('user_inactive');
  if (new Date(user.date_expired).getTime() <= Date.now()) return refuse('user_expired');
  // A login ACL that asks for a review has no waiting page on this path: refused like a reject.
  if (await checkLoginAcl(req, user.id)) return refuse('acl_not_allow');
  await req.db
    .updateTable('users_user')
    .set({ last_login: new Date().toISOString() })
    .where('id', '=', user.id)
    .execute();
  const session = { backend, sso: { ...sso, backend } };
  // SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY: the MFA step on the login page, as after a password.
  const step = (await req.server.deps.settings.get('SECURITY_MFA_AUTH_ENABLED_FOR_THIRD_PARTY'))
    ? await mfaStepFor(req, user.id)
    : ({ required: false } as const);
  if (!step.required) {
    await startSession(req, reply, user.id, false, session);
    return reply.redirect(next);
  }
  await saveFlow(req, reply, {
    userId: user.id,
    username: user.username,
    mfaOk: false,
    autoLogin: false,
    next,
    at: Date.now(),
    ...session,
  });
  const mfa = step.choices.length ? step.choices.join(',') : 'unset';
  return reply.redirect(`${LOGIN_PATH}?mfa=${mfa}&next=${encodeURIComponent(next)}`);
}
