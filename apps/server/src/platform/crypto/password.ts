import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt, a memory-hard KDF (N=2^15, r=8: 32 MiB per hash).
 * Stored as `scrypt$<log2N>$<r>$<p>$<salt b64>$<hash b64>` so parameters can be raised later, and a
 * hash is always verified with the parameters it carries.
 */
export const PRODUCTION_LOG_N = 15;
let hashLogN = PRODUCTION_LOG_N;
const R = 8;
const P = 1;
const KEY_LEN = 32;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 2 * 128 * r * 2 ** logN + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * The cost new hashes get. Only the test suites lower it (apps/server/test-support/setup.ts), for
 * the thousands of users they create; nothing in the product calls it.
 */
export function setHashCost(logN: number): void {
  hashLogN = logN;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, hashLogN, R, P);
  return `scrypt$${hashLogN}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

const dummyHash = () =>
  `scrypt$${hashLogN}$${R}$${P}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LEN).toString('base64')}`;

/** Checks a password; with no stored hash it still spends the same time, so unknown users are not revealed. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored || dummyHash()).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, logN, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p));
  return Boolean(stored) && expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A random password that satisfies the default rules: letters, digits and a special character. */
export function generatePassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length - 2; i++) out += alphabet[bytes[i]! % alphabet.length];
  return `${out}${'@#%+'[bytes[length - 2]! % 4]}${bytes[length - 1]! % 10}`;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
