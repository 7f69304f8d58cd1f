import { PUBLIC_KEY_COOKIE } from '@gatehouse/contract';
import { getCookie } from './cookies.ts';

/**
 * Encrypts a secret field before it is sent, Gatehouse's scheme:
 * `gh1.<base64 RSA-OAEP-SHA256(random AES key)>:<base64 iv | AES-256-GCM ciphertext | tag>`, with
 * the public key of the `jms_public_key` cookie (base64 of a PEM). Without the cookie, or where
 * WebCrypto is unavailable (a page served over plain HTTP from a host other than localhost), the
 * value is sent as it is, which the server accepts.
 */
export const GATEHOUSE_SCHEME_MARKER = 'gh1.';

let imported: { cookie: string; key: Promise<CryptoKey> } | undefined;

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
}

function publicKey(subtle: SubtleCrypto, cookie: string): Promise<CryptoKey> {
  if (imported?.cookie !== cookie) {
    const pem = atob(cookie.replace(/"/g, ''));
    imported = {
      cookie,
      key: subtle.importKey('spki', pemToDer(pem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']),
    };
  }
  return imported.key;
}

export async function encryptSecret(value: string): Promise<string> {
  const cookie = getCookie(PUBLIC_KEY_COOKIE);
  const subtle = globalThis.crypto?.subtle;
  if (!value || !cookie || !subtle) return value;
  try {
    const rsa = await publicKey(subtle, cookie);
    const raw = crypto.getRandomValues(new Uint8Array(32));
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const aes = await subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    const body = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, aes, new TextEncoder().encode(value)));
    const wrapped = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, rsa, raw));
    const payload = new Uint8Array(iv.length + body.length);
    payload.set(iv);
    payload.set(body, iv.length);
    return `${GATEHOUSE_SCHEME_MARKER}${base64(wrapped)}:${base64(payload)}`;
  } catch {
    imported = undefined;
    return value;
  }
}
