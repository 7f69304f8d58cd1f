import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { nowIso, toBool, type DB } from '../../../platform/db/schema.ts';
import type { Selectable } from 'kysely';

/**
 * Temporary passwords (`authentication_temptoken`, the contract's temp tokens): a 36-character
 * secret, valid TEMP_TOKEN_TTL_SECONDS, that signs its user in once in place of the password
 * (login page and token API alike, through `passwordLogin.ts`) while AUTH_TEMP_TOKEN is on. The
 * secret is sealed at rest; using it marks it verified in one conditional update, so two
 * concurrent sign-ins with the same secret cannot both succeed.
 */
export const TEMP_TOKEN_TTL_SECONDS = 300;
export const TEMP_TOKEN_LENGTH = 36;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

type TempTokenRow = Selectable<DB['authentication_temptoken']>;

export function newTempSecret(): string {
  let s = '';
  for (let i = 0; i < TEMP_TOKEN_LENGTH; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

export function isValidTempToken(row: Pick<TempTokenRow, 'verified' | 'date_expired'>, now = Date.now()): boolean {
  return !toBool(row.verified) && Date.parse(row.date_expired) > now;
}

export async function createTempToken(req: FastifyRequest, user: { id: string; username: string }) {
  const now = new Date();
  const secret = newTempSecret();
  const row = {
    id: randomUUID(),
    user_id: user.id,
    username: user.username,
    secret: req.server.deps.secretBox.encrypt(secret),
    verified: false,
    date_created: now.toISOString(),
    date_updated: now.toISOString(),
    date_verified: null,
    date_expired: new Date(now.getTime() + TEMP_TOKEN_TTL_SECONDS * 1000).toISOString(),
  };
  await req.db.insertInto('authentication_temptoken').values(row).execute();
  return { ...row, secret };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Whether `password` is a live temporary password of the user; when it is, it is used up. Off
 * (false) unless AUTH_TEMP_TOKEN is on; only a string of the secret's length is compared.
 */
export async function consumeTempToken(req: FastifyRequest, userId: string, password: string): Promise<boolean> {
  if (password.length !== TEMP_TOKEN_LENGTH || !(await req.server.deps.settings.get('AUTH_TEMP_TOKEN'))) return false;
  const now = nowIso();
  const rows = await req.db
    .selectFrom('authentication_temptoken')
    .selectAll()
    .where('user_id', '=', userId)
    .where('verified', '=', false)
    .where('date_expired', '>', now)
    .execute();
  const box = req.server.deps.secretBox;
  const match = rows.find((r) => {
    try {
      return sameSecret(box.decrypt(r.secret), password);
    } catch {
      return false;
    }
  });
  if (!match) return false;
  const used = await req.db
    .updateTable('authentication_temptoken')
    .set({ verified: true, date_verified: now, date_updated: now })
    .where('id', '=', match.id)
    .where('verified', '=', false)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

export function tempTokenOut(req: FastifyRequest, row: TempTokenRow) {
  let secret = '';
  try {
    secret = req.server.deps.secretBox.decrypt(row.secret);
  } catch {
    secret = '';
  }
  return {
    id: row.id,
    username: row.username,
    secret,
    verified: toBool(row.verified),
    is_valid: isValidTempToken(row),
    date_created: row.date_created,
    date_updated: row.date_updated,
    date_verified: row.date_verified,
    date_expired: row.date_expired,
  };
}
