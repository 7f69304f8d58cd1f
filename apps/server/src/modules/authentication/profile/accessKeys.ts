import { createHash, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { identitySourceOf } from '../../../http/identitySource.ts';
import type { CredentialResult, CredentialScheme } from '../../../http/credentialSchemes.ts';
import type { AppDeps } from '../../../http/context.ts';
import { nowIso, toBool, type DB } from '../../../platform/db/schema.ts';
import {
  hmacSignature,
  parseSignature,
  SIGNATURE_ALGORITHM,
  signatureMatches,
  signingString,
} from './httpSignature.ts';
import { tp } from './profileMessages.ts';

/**
 * API keys (`authentication_accesskey`) and the `Signature` authentication class. The key's id is
 * the `keyId`; its secret (a uuid, as the contract's) is sealed at rest and opened to verify.
 * Beyond the contract (which has no clock check), a signed request must carry a `Date` within
 * SIGNATURE_MAX_SKEW_SECONDS of the server's clock and is accepted once: its signature is marked
 * in the cache (atomic increment, so across instances too) for twice the skew, after which its Date
 * is too old anyway. A client repeating the same request must sign it again with a new Date.
 */
export const SIGNATURE_MAX_SKEW_SECONDS = 300;
/** Keys per user: enough for scripts and rotations, and a bound on what one account can create. */
export const MAX_ACCESS_KEYS = 10;
/** `date_last_used` is written at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function createAccessKey(deps: AppDeps, db: Kysely<DB>, userId: string) {
  const row = {
    id: randomUUID(),
    user_id: userId,
    secret: randomUUID(),
    is_active: true,
    date_last_used: null,
    date_created: nowIso(),
  };
  await db
    .insertInto('authentication_accesskey')
    .values({ ...row, secret: deps.secretBox.encrypt(row.secret) })
    .execute();
  return row;
}

async function verifySignature(req: FastifyRequest, credentials: string): Promise<CredentialResult> {
  const { lang } = req;
  const params = parseSignature(credentials);
  if (!params) return { error: tp(lang, 'signature_malformed') };
  if (params.algorithm !== SIGNATURE_ALGORITHM)
    return { error: tp(lang, 'signature_algorithm', { algorithm: params.algorithm }) };
  if (!params.headers.includes('(request-target)') || !params.headers.includes('date'))
    return { error: tp(lang, 'signature_headers_required') };
  const signed = signingString(req.method, req.url, req.headers, params.headers);
  if ('missing' in signed) return { error: tp(lang, 'signature_header_missing', { header: signed.missing }) };
  const date = Date.parse(String(req.headers.date ?? ''));
  if (Number.isNaN(date)) return { error: tp(lang, 'signature_date_invalid') };
  if (Math.abs(Date.now() - date) > SIGNATURE_MAX_SKEW_SECONDS * 1000)
    return { error: tp(lang, 'signature_date_skew', { seconds: SIGNATURE_MAX_SKEW_SECONDS }) };

  const key = /^[0-9a-f-]{36}$/i.test(params.keyId)
    ? await req.db
        .selectFrom('authentication_accesskey')
        .selectAll()
        .where('id', '=', params.keyId.toLowerCase())
        .executeTakeFirst()
    : undefined;
  let secret: string | undefined;
  try {
    secret = key && toBool(key.is_active) ? req.server.deps.secretBox.decrypt(key.secret) : undefined;
  } catch {
    secret = undefined;
  }
  // Unknown key, disabled key and wrong signature read alike: the answer tells nothing about which keys exist.
  if (!key || secret === undefined || !signatureMatches(hmacSignature(secret, signed.text), params.signature))
    return { error: tp(lang, 'signature_invalid') };
  const user = await identitySourceOf(req.server).findActiveUser(req.db, key.user_id);
  if (!user) return { error: tp(lang, 'signature_invalid') };

  const mark = `sig_seen:${createHash('sha256').update(`${key.id}:${params.signature}`).digest('hex')}`;
  if ((await req.server.deps.cache.incr(mark, 2 * SIGNATURE_MAX_SKEW_SECONDS)) > 1)
    return { error: tp(lang, 'signature_replayed') };

  const now = Date.now();
  if (!key.date_last_used || now - Date.parse(key.date_last_used) > LAST_USED_RESOLUTION_MS)
    await req.db
      .updateTable('authentication_accesskey')
      .set({ date_last_used: new Date(now).toISOString() })
      .where('id', '=', key.id)
      .execute();
  return { user };
}

export const signatureScheme: CredentialScheme = {
  scheme: 'Signature',
  method: 'signature',
  authenticate: verifySignature,
};

/**
 * Legacy private tokens (`Authorization: Token <key>`): a random key per user, stored only as its
 * SHA-256. The contract has no API that issues them (`user.create_private_token()` server-side);
 * `createPrivateToken` is that call.
 */
const tokenHash = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export async function createPrivateToken(db: Kysely<DB>, userId: string): Promise<string> {
  const key = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '').slice(0, 8);
  await db
    .insertInto('authentication_privatetoken')
    .values({ id: randomUUID(), user_id: userId, key_hash: tokenHash(key), date_created: nowIso() })
    .execute();
  return key;
}

export const privateTokenScheme: CredentialScheme = {
  scheme: 'Token',
  method: 'token',
  async authenticate(req, credentials) {
    const row = credentials
      ? await req.db
          .selectFrom('authentication_privatetoken')
          .select('user_id')
          .where('key_hash', '=', tokenHash(credentials))
          .executeTakeFirst()
      : undefined;
    const user = row ? await identitySourceOf(req.server).findActiveUser(req.db, row.user_id) : undefined;
    return user ? { user } : { error: tp(req.lang, 'private_token_invalid') };
  },
};
