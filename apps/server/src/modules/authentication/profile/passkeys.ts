import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { ApiError } from '../../../http/errors.ts';
import { nowIso, toBool } from '../../../platform/db/schema.ts';
import { tp } from './profileMessages.ts';

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server. The relying party is FIDO_SERVER_ID (else the
 * request's host name) named FIDO_SERVER_NAME; the expected origin is the request's own
 * (`http/` trusts forwarded headers only from TRUSTED_PROXIES). Challenges live in the cache for
 * CHALLENGE_TTL_SECONDS and are used once. User verification is required on both ceremonies, so a
 * passkey sign-in is possession plus PIN or biometrics: it counts as an MFA-level sign-in.
 */
export const CHALLENGE_TTL_SECONDS = 300;
const regKey = (userId: string) => `passkey_reg:${userId}`;
const authKey = (challenge: string) => `passkey_auth:${challenge}`;

interface RegChallenge {
  challenge: string;
  name: string;
}

function passkeyError(req: FastifyRequest, key: 'passkey_challenge_expired' | 'passkey_unknown', code: string) {
  return new ApiError(400, { detail: tp(req.lang, key), code });
}

function failed(req: FastifyRequest, e: unknown): ApiError {
  const reason = e instanceof Error ? e.message : String(e);
  return new ApiError(400, { detail: tp(req.lang, 'passkey_failed', { reason }), code: 'passkey_failed' });
}

async function relyingParty(req: FastifyRequest): Promise<{ id: string; name: string; origin: string }> {
  const { settings } = req.server.deps;
  const configured = String(await settings.get('FIDO_SERVER_ID')).trim();
  return {
    id: configured || req.hostname,
    name: String(await settings.get('FIDO_SERVER_NAME')) || 'Gatehouse',
    origin: `${req.protocol}://${req.host}`,
  };
}

/** A short label of the browser and system that registered a passkey, from its User-Agent. */
export function platformOf(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : '';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return [browser, os].filter(Boolean).join(' on ') || ua.slice(0, 64);
}

/** Registration, first half: the creation options for the signed-in user; the name is kept for the second half. */
export async function startRegistration(req: FastifyRequest, name: string) {
  const user = req.user!;
  const rp = await relyingParty(req);
  const existing = await req.db
    .selectFrom('authentication_passkey')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', user.id)
    .execute();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({
      id: c.credential_id,
      transports: JSON.parse(c.transports) as string[],
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await req.server.deps.cache.set(
    regKey(user.id),
    { challenge: options.challenge, name } satisfies RegChallenge,
    CHALLENGE_TTL_SECONDS,
  );
  return options;
}

/** Registration, second half: verifies the authenticator's answer and stores the passkey. */
export async function finishRegistration(req: FastifyRequest, response: RegistrationResponseJSON) {
  const user = req.user!;
  const { cache } = req.server.deps;
  const pending = await cache.get<RegChallenge>(regKey(user.id));
  if (!pending) throw passkeyError(req, 'passkey_challenge_expired', 'challenge_expired');
  await cache.delete(regKey(user.id));
  const rp = await relyingParty(req);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: pending.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (e) {
    throw failed(req, e);
  }
  if (!verified.verified) throw failed(req, 'not verified');
  const { credential } = verified.registrationInfo;
  const row = {
    id: randomUUID(),
    user_id: user.id,
    name: pending.name,
    is_active: true,
    platform: platformOf(req.headers['user-agent']),
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    sign_count: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    created_by: user.username,
    date_last_used: null,
    date_created: nowIso(),
  };
  await req.db.insertInto('authentication_passkey').values(row).execute();
  return row;
}

/** Sign-in, first half: options for a discoverable credential (the authenticator picks the user). */
export async function startAuthentication(req: FastifyRequest) {
  const rp = await relyingParty(req);
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required' });
  await req.server.deps.cache.set(authKey(options.challenge), 1, CHALLENGE_TTL_SECONDS);
  return options;
}

function challengeOf(response: AuthenticationResponseJSON): string | undefined {
  try {
    const client = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof client.challenge === 'string' ? client.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sign-in, second half: the challenge must be one this server issued and not yet used (the cache's
 * atomic increment marks it, across instances), the credential an active passkey; then the
 * signature, origin, relying party, user verification and counter are checked. Returns the user id.
 */
export async function finishAuthentication(req: FastifyRequest, response: AuthenticationResponseJSON): Promise<string> {
  const { cache } = req.server.deps;
  const challenge = challengeOf(response);
  if (!challenge || !(await cache.get(authKey(challenge))))
    throw passkeyError(req, 'passkey_challenge_expired', 'challenge_expired');
  if ((await cache.incr(`${authKey(challenge)}:used`, CHALLENGE_TTL_SECONDS)) > 1)
    throw passkeyError(req, 'passkey_challenge_expired', 'challenge_expired');
  await cache.delete(authKey(challenge));
  const passkey =
    typeof response.id === 'string'
      ? await req.db
          .selectFrom('authentication_passkey')
          .selectAll()
          .where('credential_id', '=', response.id)
          .executeTakeFirst()
      : undefined;
  if (!passkey || !toBool(passkey.is_active)) throw passkeyError(req, 'passkey_unknown', 'passkey_unknown');
  const rp = await relyingParty(req);
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: Number(passkey.sign_count),
        transports: JSON.parse(passkey.transports) as never,
      },
    });
  } catch (e) {
    throw failed(req, e);
  }
  if (!verified.verified) throw failed(req, 'not verified');
  await req.db
    .updateTable('authentication_passkey')
    .set({ sign_count: verified.authenticationInfo.newCounter, date_last_used: nowIso() })
    .where('id', '=', passkey.id)
    .execute();
  return passkey.user_id;
}
