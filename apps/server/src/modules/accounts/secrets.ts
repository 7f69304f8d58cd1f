import { createHash, randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import ssh2 from 'ssh2';
import type { Language } from '@gatehouse/contract';
import { acm } from './accountMessages.ts';

/**
 * What a secret is allowed to be, per secret type, and the sealing of secrets
 * with the server's secret box. A plain secret lives only in the request that carries it.
 */
export const SECRET_TYPES = ['password', 'ssh_key', 'access_key', 'token', 'api_key'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];
export const SECRET_MAX_LENGTH = 40960;

export interface CheckedSecret {
  /** `{ssh_key_fingerprint}` for keys, `{}` otherwise. */
  specInfo: Record<string, string>;
}

/** OpenSSH's fingerprint of a public key blob: `SHA256:` + unpadded base64 of its SHA-256. */
export function fingerprintOf(publicSsh: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicSsh).digest('base64').replace(/=+$/, '')}`;
}

/** Parses a private key (with its passphrase); an error message in the request's language when it is not one. */
export function checkSshKey(
  lang: Language,
  key: string,
  passphrase: string | undefined,
): { fingerprint?: string; error?: string; field?: 'secret' | 'passphrase' } {
  let parsed: ReturnType<typeof ssh2.utils.parseKey>;
  try {
    parsed = ssh2.utils.parseKey(key, passphrase || undefined);
  } catch {
    return { error: acm(lang, 'ssh_key_invalid') };
  }
  if (parsed instanceof Error) {
    if (/passphrase|decrypt|bad decrypt/i.test(parsed.message))
      return { error: acm(lang, passphrase ? 'passphrase_wrong' : 'passphrase_missing'), field: 'passphrase' };
    return { error: acm(lang, 'ssh_key_invalid') };
  }
  const one = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!one || !one.isPrivateKey()) return { error: acm(lang, 'ssh_key_not_private') };
  return { fingerprint: fingerprintOf(one.getPublicSSH()) };
}

/** Characters Ansible cannot carry in a pushed password. */
function ansibleProblem(lang: Language, password: string): string | undefined {
  for (const bad of ['{{', '{%', "'", '"'])
    if (password.includes(bad)) return acm(lang, 'password_char', { chars: bad });
  return undefined;
}

export function checkSecret(
  lang: Language,
  type: string,
  secret: string,
  passphrase?: string,
): { ok: CheckedSecret } | { field: 'secret' | 'passphrase'; error: string } {
  if (secret.length > SECRET_MAX_LENGTH)
    return { field: 'secret', error: acm(lang, 'secret_too_long', { n: SECRET_MAX_LENGTH }) };
  if (type === 'password') {
    const bad = ansibleProblem(lang, secret);
    return bad ? { field: 'secret', error: bad } : { ok: { specInfo: {} } };
  }
  if (type === 'ssh_key') {
    const r = checkSshKey(lang, secret, passphrase);
    if (r.error) return { field: r.field ?? 'secret', error: r.error };
    return { ok: { specInfo: { ssh_key_fingerprint: r.fingerprint! } } };
  }
  return { ok: { specInfo: {} } };
}

export function seal(req: FastifyRequest, plain: string): string {
  return req.server.deps.secretBox.encrypt(plain);
}

export function unseal(req: FastifyRequest, stored: string | null | undefined): string | null {
  if (stored === null || stored === undefined || stored === '') return null;
  return req.server.deps.secretBox.decrypt(stored);
}

export interface PasswordRules {
  length: number;
  lowercase: boolean;
  uppercase: boolean;
  digit: boolean;
  symbol: boolean;
  /** The symbols to draw from (a subset of SYMBOLS), all of them when absent. */
  symbol_set?: string;
}

export const DEFAULT_PASSWORD_RULES: PasswordRules = {
  length: 16,
  lowercase: true,
  uppercase: true,
  digit: true,
  symbol: true,
};

/** Symbols that survive shells and Ansible (no quotes, braces, backslash or `%`). */
export const SYMBOLS = '!#$&()*+,-.:;<=>?@[]^_~';
const SETS = {
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digit: '0123456789',
  symbol: SYMBOLS,
};

/** A random password with at least one character of every chosen class (crypto-random). */
export function randomPassword(rules: PasswordRules): string {
  const sets = {
    ...SETS,
    symbol: [...(rules.symbol_set ?? '')].filter((c) => SYMBOLS.includes(c)).join('') || SYMBOLS,
  };
  const chosen = (Object.keys(sets) as (keyof typeof sets)[]).filter((k) => rules[k]);
  const classes = chosen.length ? chosen.map((k) => sets[k]) : [sets.lowercase, sets.digit];
  const all = classes.join('');
  const length = Math.max(rules.length, classes.length);
  const out = classes.map((set) => set[randomInt(set.length)]!);
  while (out.length < length) out.push(all[randomInt(all.length)]!);
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.join('');
}

/** A new Ed25519 key pair in OpenSSH format. */
export function randomSshKey(): string {
  return ssh2.utils.generateKeyPairSync('ed25519').private;
}
