import { constants, createCipheriv, publicEncrypt, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { GATEHOUSE_SCHEME_MARKER } from '../src/platform/crypto/transportSecret.ts';

/**
 * Test clients for both transport schemes. `encryptLegacy` does exactly what JumpServer's
 * `encryptPassword` does in the browser with jsencrypt and CryptoJS; `encryptGatehouse` does what
 * apps/web/src/lib/crypto.ts does with WebCrypto.
 */
export function encryptLegacy(
  publicKeyPem: string,
  plain: string,
  aesKey = (Math.random() + 1).toString(36).substring(2),
): string {
  const pub = forge.pki.publicKeyFromPem(publicKeyPem) as forge.pki.rsa.PublicKey;
  const keyCipher = forge.util.encode64(pub.encrypt(aesKey, 'RSAES-PKCS1-V1_5'));
  // fillKey(): the UTF-8 text key cut or padded with '\0' to 16 characters.
  const key16 = aesKey.length > 16 ? aesKey.slice(0, 16) : aesKey + '\0'.repeat(16 - aesKey.length);
  const data = Buffer.from(plain, 'utf8');
  const padded = Buffer.concat([data, Buffer.alloc((16 - (data.length % 16)) % 16)]); // CryptoJS ZeroPadding
  const cipher = forge.cipher.createCipher(
    'AES-ECB',
    forge.util.createBuffer(Buffer.from(key16, 'utf8').toString('binary')),
  );
  cipher.start();
  cipher.update(forge.util.createBuffer(padded.toString('binary')));
  // A pad function that adds nothing: the input is already zero-padded (forge's typings omit the argument).
  (cipher as unknown as { finish(pad: () => boolean): boolean }).finish(() => true);
  return `${keyCipher}:${forge.util.encode64(cipher.output.getBytes())}`;
}

export function encryptGatehouse(publicKeyPem: string, plain: string): string {
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const keyCipher = publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    key,
  );
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${GATEHOUSE_SCHEME_MARKER}${keyCipher.toString('base64')}:${Buffer.concat([iv, body]).toString('base64')}`;
}

export function publicKeyFromCookie(cookie: string): string {
  return Buffer.from(decodeURIComponent(cookie), 'base64').toString('utf8');
}
