import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ssh2 from 'ssh2';
import type { Language } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
import { shape } from '../../resource/describe.ts';

/**
 * The signed-in user's SSH public key (`users_user.public_key`), used by the native SSH server's
 * public-key sign-in (modules/terminal/ssh/sshAuth.ts):
 * `GET|PUT|PATCH /api/v1/users/profile/public-key/` `{public_key}` → `{public_key_comment,
 * public_key_hash_md5}`. The key must parse as an OpenSSH public key (a private key is refused,
 * never stored); it is stored as `<type> <base64> <comment>`. An empty value removes it.
 */
const MESSAGES = catalogue<typeof usersMessages>('users');

export interface PublicKeyFacts {
  public_key_comment: string;
  public_key_hash_md5: string;
}

/** The comment and the MD5 fingerprint (`aa:bb:...`, as `ssh-keygen -E md5`) of a stored key line. */
export function publicKeyFacts(line: string | null | undefined): PublicKeyFacts {
  const parsed = line ? ssh2.utils.parseKey(line) : undefined;
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error) return { public_key_comment: '', public_key_hash_md5: '' };
  const md5 = createHash('md5').update(key.getPublicSSH()).digest('hex');
  return { public_key_comment: key.comment, public_key_hash_md5: md5.replace(/(..)(?!$)/g, '$1:') };
}

function invalid(lang: Language): ApiError {
  return new ApiError(400, { public_key: [MESSAGES.public_key_invalid[lang]] });
}

/** The normalised key line, '' to remove, or a 400 in the user's language. */
export function parsePublicKey(value: unknown, lang: Language): string {
  if (value === '' || value === null) return '';
  if (typeof value !== 'string' || value.length > 16384) throw invalid(lang);
  const parsed = ssh2.utils.parseKey(value.trim());
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error || key.isPrivateKey()) throw invalid(lang);
  const comment = key.comment.replace(/[\r\n]/g, ' ').trim();
  return `${key.type} ${key.getPublicSSH().toString('base64')}${comment ? ` ${comment}` : ''}`;
}

async function current(req: FastifyRequest): Promise<PublicKeyFacts> {
  const row = await req.db
    .selectFrom('users_user')
    .select('public_key')
    .where('id', '=', req.user!.id)
    .executeTakeFirst();
  return publicKeyFacts(row?.public_key);
}

async function update(req: FastifyRequest<{ Body: { public_key?: unknown } }>): Promise<PublicKeyFacts> {
  const body = req.body ?? {};
  if (!('public_key' in body)) throw invalid(req.lang);
  const line = parsePublicKey(body.public_key, req.lang);
  await req.db
    .updateTable('users_user')
    .set({ public_key: line, date_updated: new Date().toISOString() })
    .where('id', '=', req.user!.id)
    .execute();
  return current(req);
}

export function registerProfilePublicKeyRoutes(app: FastifyInstance): void {
  const url = '/api/v1/users/profile/public-key/';
  const describe = shape(
    'public_key',
    { public_key: 'string', public_key_comment: 'string', public_key_hash_md5: 'string' },
    ['public_key'],
  );
  app.get(url, { config: { describe } }, current);
  app.put(url, update);
  app.patch(url, update);
}
