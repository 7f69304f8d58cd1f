import { beforeAll, describe, expect, it } from 'vitest';
import {
  TransportDecryptError,
  decryptTransportSecret,
  generateTransportKeyPair,
  type TransportKeyPair,
} from './transportSecret.ts';
import { encryptGatehouse, encryptLegacy } from '../../../test-support/transportSecret.ts';

let pair: TransportKeyPair;
let small: TransportKeyPair;
beforeAll(async () => {
  [pair, small] = await Promise.all([generateTransportKeyPair(), generateTransportKeyPair(1024)]);
});

describe('transported secrets (api-contract §2.2)', () => {
  it('decrypts the Gatehouse scheme (RSA-OAEP + AES-256-GCM)', () => {
    const v = encryptGatehouse(pair.publicKeyPem, 'pässwörd:with:colons');
    expect(v.startsWith('gh1.')).toBe(true);
    expect(decryptTransportSecret(pair.privateKeyPem, v)).toEqual({
      scheme: 'gatehouse',
      value: 'pässwörd:with:colons',
    });
  });

  it('decrypts the legacy scheme exactly as jsencrypt + CryptoJS produce it, with 2048- and 1024-bit keys', () => {
    for (const p of [pair, small]) {
      for (const plain of ['Adm1n-secret!', 'exactly-16-bytes', '中文密码', 'x'.repeat(100)]) {
        expect(decryptTransportSecret(p.privateKeyPem, encryptLegacy(p.publicKeyPem, plain))).toEqual({
          scheme: 'legacy',
          value: plain,
        });
      }
    }
    // The client's text key is 10-13 characters; one of exactly 16 works too.
    expect(
      decryptTransportSecret(pair.privateKeyPem, encryptLegacy(pair.publicKeyPem, 'pw', 'k'.repeat(16))).value,
    ).toBe('pw');
  });

  it('restores a key cipher that lost its leading zero byte', () => {
    // Find a key cipher starting with 0x00 and drop that byte, as jsencrypt's hex conversion does.
    for (let i = 0; i < 2000; i++) {
      const v = encryptLegacy(small.publicKeyPem, 'secret');
      const [k, d] = v.split(':') as [string, string];
      const raw = Buffer.from(k, 'base64');
      if (raw[0] !== 0) continue;
      expect(decryptTransportSecret(small.privateKeyPem, `${raw.subarray(1).toString('base64')}:${d}`).value).toBe(
        'secret',
      );
      return;
    }
  });

  it('takes anything that is not two non-empty parts as plain text', () => {
    for (const v of ['plain', 'a:b:c', ':x', 'x:', ''])
      expect(decryptTransportSecret(pair.privateKeyPem, v)).toEqual({ scheme: 'plain', value: v });
  });

  it('uses a legacy value that does not decrypt as plain text (contract), but refuses a tampered Gatehouse value', () => {
    const legacy = encryptLegacy(pair.publicKeyPem, 'secret');
    const [k, d] = legacy.split(':') as [string, string];
    const other = encryptLegacy(small.publicKeyPem, 'secret');
    expect(decryptTransportSecret(pair.privateKeyPem, other)).toEqual({ scheme: 'plain', value: other });
    expect(decryptTransportSecret(pair.privateKeyPem, `${k}:${d.slice(0, -4)}`).scheme).toBe('plain');
    expect(decryptTransportSecret(pair.privateKeyPem, 'user:name')).toEqual({ scheme: 'plain', value: 'user:name' });

    const gh = encryptGatehouse(pair.publicKeyPem, 'secret');
    const [gk, gd] = gh.split(':') as [string, string];
    const body = Buffer.from(gd, 'base64');
    body[20] = body[20]! ^ 0xff;
    expect(() => decryptTransportSecret(pair.privateKeyPem, `${gk}:${body.toString('base64')}`)).toThrow(
      TransportDecryptError,
    );
    expect(() => decryptTransportSecret(small.privateKeyPem, gh)).toThrow(TransportDecryptError);
    expect(() => decryptTransportSecret(undefined, gh)).toThrow(TransportDecryptError);
  });
});
