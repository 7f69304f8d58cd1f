import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/**
 * Licences: a signed document (Ed25519) naming the corporation, edition, expiry and asset count,
 * written `GATEHOUSE-LICENSE-1.<base64url payload>.<base64url signature>` and verified against
 * trusted public keys.
 */
export interface LicencePayload {
  id: string;
  corporation: string;
  edition: 'Enterprise' | 'Testing';
  /** Last valid day, `YYYY-MM-DD` (UTC). */
  expired: string;
  /** Number of assets covered; 0 means no limit. */
  asset_count: number;
  issued: string;
}

export type LicenceCheck = { ok: true; payload: LicencePayload } | { ok: false; reason: 'format' | 'signature' };

const PREFIX = 'GATEHOUSE-LICENSE-1';

export function generateOperatorKeys(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function issueLicence(
  privatePem: string,
  p: Omit<LicencePayload, 'id' | 'issued'> & Partial<Pick<LicencePayload, 'id' | 'issued'>>,
): string {
  const payload: LicencePayload = {
    id: p.id ?? randomUUID(),
    issued: p.issued ?? new Date().toISOString().slice(0, 10),
    ...p,
  } as LicencePayload;
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signature = sign(null, Buffer.from(`${PREFIX}.${body}`), createPrivateKey(privatePem)).toString('base64url');
  return `${PREFIX}.${body}.${signature}`;
}

function publicKeys(pems: string[]): KeyObject[] {
  return pems.flatMap((pem) => {
    try {
      return [createPublicKey(pem)];
    } catch {
      return [];
    }
  });
}

export function checkLicence(text: string, trustedPems: string[]): LicenceCheck {
  const parts = text.trim().split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) return { ok: false, reason: 'format' };
  let payload: LicencePayload;
  try {
    payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as LicencePayload;
  } catch {
    return { ok: false, reason: 'format' };
  }
  if (typeof payload?.corporation !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(String(payload.expired)))
    return { ok: false, reason: 'format' };
  const data = Buffer.from(`${PREFIX}.${parts[1]}`);
  const sig = Buffer.from(parts[2]!, 'base64url');
  const trusted = publicKeys(trustedPems).some((k) => verify(null, data, k, sig));
  return trusted ? { ok: true, payload } : { ok: false, reason: 'signature' };
}

/** Days until the end of the last valid day (negative once expired). */
export function daysLeft(payload: LicencePayload, now = new Date()): number {
  const end = Date.parse(`${payload.expired}T23:59:59Z`);
  return Math.floor((end - now.getTime()) / 86400_000);
}
