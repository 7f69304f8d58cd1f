import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Symmetric encryption of secrets at rest (OTP seeds, transport private keys, later account
 * secrets): AES-256-GCM with a random 96-bit IV. Stored as `gh1$<base64 iv|ciphertext|tag>`.
 *
 * The key comes from `GATEHOUSE_SECRET_KEY` (any string of 32+ characters; SHA-256 of it is the
 * AES key) or, without it, from `<DATA_DIR>/secret.key` (32 random bytes, base64), created with
 * mode 0600 on first start. Every instance of a scale-out deployment needs the same key.
 */
export const SECRET_KEY_FILE = 'secret.key';
const PREFIX = 'gh1$';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
  }

  /** Throws when the value was not made with this key or was altered. */
  decrypt(stored: string): string {
    if (!stored.startsWith(PREFIX)) throw new Error('not an encrypted value');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    if (raw.length < 12 + 16) throw new Error('encrypted value too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  }
}

/** A setting problem that names the setting, like ConfigError. */
export class SecretKeyError extends Error {
  readonly setting: string;
  constructor(setting: string, problem: string) {
    super(`${setting}: ${problem}`);
    this.setting = setting;
  }
}

/** Opens the secret box from the environment's key or the data directory's key file (creating it). */
export function openSecretBox(dataDir: string, envKey: string | undefined): SecretBox {
  if (envKey !== undefined && envKey !== '') {
    if (envKey.length < 32) throw new SecretKeyError('GATEHOUSE_SECRET_KEY', 'must be at least 32 characters long');
    return new SecretBox(createHash('sha256').update(envKey, 'utf8').digest());
  }
  const file = path.join(dataDir, SECRET_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails when the file exists, so two instances starting together keep one key.
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new SecretKeyError('DATA_DIR', `cannot create ${file} (${(e as Error).message})`);
  }
  let key: Buffer;
  try {
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } catch (e) {
    throw new SecretKeyError('DATA_DIR', `cannot read ${file} (${(e as Error).message})`);
  }
  if (key.length !== 32)
    throw new SecretKeyError(
      'DATA_DIR',
      `${file} does not hold a 32-byte base64 key; restore it from backup or set GATEHOUSE_SECRET_KEY`,
    );
  return new SecretBox(key);
}
