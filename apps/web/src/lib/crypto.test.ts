import { constants, createDecipheriv, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { encryptSecret } from './crypto.ts';

/** The browser side of encrypted secrets: what the server's Gatehouse scheme decrypts. */
const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

function decrypt(value: string): string {
  const [k, v] = value.split(':') as [string, string];
  const key = privateDecrypt(
    { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(k.slice(4), 'base64'),
  );
  const raw = Buffer.from(v, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString('utf8');
}

afterEach(() => {
  document.cookie = 'jms_public_key=; path=/; max-age=0';
});

describe('encryptSecret', () => {
  it('sends the value as it is when the page has no public key', async () => {
    expect(await encryptSecret('plain')).toBe('plain');
  });

  it('encrypts with the jms_public_key cookie as keypart:valuepart, marked gh1.', async () => {
    document.cookie = `jms_public_key=${encodeURIComponent(Buffer.from(publicKey).toString('base64'))}; path=/`;
    const value = await encryptSecret('pässwörd:1');
    expect(value).toMatch(/^gh1\.[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(decrypt(value)).toBe('pässwörd:1');
    expect(await encryptSecret('pässwörd:1')).not.toBe(value);
  });
});
