import { constants, createDecipheriv, generateKeyPair, privateDecrypt } from 'node:crypto';
import forge from 'node-forge';

/**
 * Secrets sent by browsers and clients encrypted with the page's RSA public key.
 * A value is `<keypart>:<valuepart>`:
 *
 * - Gatehouse scheme: keypart `gh1.<base64 RSA-OAEP-SHA256(32-byte AES key)>`, valuepart
 *   `<base64 iv(12) | AES-256-GCM ciphertext | tag(16)>`. The `gh1.` marker cannot occur in a
 *   legacy keypart (base64 has no `.`). A marked value that does not decrypt is refused.
 * - Legacy scheme (JumpServer's jsencrypt + CryptoJS clients): keypart base64 RSA PKCS#1 v1.5 of a
 *   short text key; valuepart base64 AES-ECB with that key zero-padded to 16 or 32 bytes and zero
 *   padding. Node >= 20.11 refuses PKCS#1 v1.5 decryption (CVE-2023-46809), so this path uses
 *   node-forge. A value that does not decrypt is taken as plain text, as the contract says.
 * - Anything else (not exactly two non-empty parts) is plain text.
 */
export const GATEHOUSE_SCHEME_MARKER = 'gh1.';

export interface TransportKeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
  /** base64 of the public key PEM: the value of the `jms_public_key` cookie. */
  publicKeyCookie: string;
}

export type DecryptedSecret = { scheme: 'plain' | 'legacy' | 'gatehouse'; value: string };

/** A value marked with the Gatehouse scheme that does not decrypt with this key. */
export class TransportDecryptError extends Error {
  constructor() {
    super('the encrypted value does not decrypt with this browser key');
    this.name = 'TransportDecryptError';
  }
}

export const TRANSPORT_KEY_BITS = 2048;

export function generateTransportKeyPair(bits = TRANSPORT_KEY_BITS): Promise<TransportKeyPair> {
  return new Promise((resolve, reject) =>
    generateKeyPair(
      'rsa',
      {
        modulusLength: bits,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (err, publicKeyPem, privateKeyPem) => {
        if (err) return reject(err);
        resolve({ publicKeyPem, privateKeyPem, publicKeyCookie: Buffer.from(publicKeyPem, 'utf8').toString('base64') });
      },
    ),
  );
}

const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

function splitParts(value: string): [string, string] | undefined {
  const parts = value.split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return [parts[0], parts[1]];
}

function decryptGatehouse(privateKeyPem: string, keyPart: string, valuePart: string): string {
  try {
    const aesKey = privateDecrypt(
      { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(keyPart.slice(GATEHOUSE_SCHEME_MARKER.length), 'base64'),
    );
    const raw = Buffer.from(valuePart, 'base64');
    if (aesKey.length !== 32 || raw.length < 12 + 16) throw new TransportDecryptError();
    const decipher = createDecipheriv('aes-256-gcm', aesKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new TransportDecryptError();
  }
}

/** JumpServer's `padding_key(key, 32)`: truncate to 32, else zero-pad to a multiple of 16. */
function paddingKey(key: Buffer, max = 32): Buffer {
  if (key.length >= max) return key.subarray(0, max);
  const len = Math.ceil(key.length / 16) * 16 || 16;
  return Buffer.concat([key, Buffer.alloc(len - key.length)]);
}

function decryptLegacy(privateKeyPem: string, keyPart: string, valuePart: string): string | undefined {
  if (!BASE64_RE.test(keyPart) || !BASE64_RE.test(valuePart)) return undefined;
  try {
    const priv = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
    const size = Math.ceil(priv.n.bitLength() / 8);
    let cipherBytes = Buffer.from(keyPart, 'base64');
    // jsencrypt drops a leading zero byte now and then (a 127-byte ciphertext for a 1024-bit key).
    if (cipherBytes.length < size) cipherBytes = Buffer.concat([Buffer.alloc(size - cipherBytes.length), cipherBytes]);
    const textKey = priv.decrypt(cipherBytes.toString('binary'), 'RSAES-PKCS1-V1_5');
    const key = paddingKey(Buffer.from(textKey, 'binary'));
    const data = Buffer.from(valuePart, 'base64');
    if (data.length === 0 || data.length % 16 !== 0) return undefined;
    const decipher = createDecipheriv(key.length === 32 ? 'aes-256-ecb' : 'aes-128-ecb', key, null);
    decipher.setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(data), decipher.final()]);
    let end = plain.length;
    while (end > 0 && plain[end - 1] === 0) end--;
    return plain.subarray(0, end).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Decrypts a transported secret with the browser's private key (undefined when the browser has
 * none). Throws TransportDecryptError only for a Gatehouse-marked value that does not decrypt.
 */
export function decryptTransportSecret(privateKeyPem: string | undefined, value: string): DecryptedSecret {
  const parts = splitParts(value);
  if (!parts) return { scheme: 'plain', value };
  const [keyPart, valuePart] = parts;
  if (keyPart.startsWith(GATEHOUSE_SCHEME_MARKER)) {
    if (!privateKeyPem) throw new TransportDecryptError();
    return { scheme: 'gatehouse', value: decryptGatehouse(privateKeyPem, keyPart, valuePart) };
  }
  if (!privateKeyPem) return { scheme: 'plain', value };
  const legacy = decryptLegacy(privateKeyPem, keyPart, valuePart);
  return legacy === undefined ? { scheme: 'plain', value } : { scheme: 'legacy', value: legacy };
}
