import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * HTTP signatures with HMAC-SHA256 (draft-cavage-http-signatures, the `httpsig` scheme the
 * contract's API clients use): `Authorization: Signature keyId="..",algorithm="hmac-sha256",
 * headers="(request-target) accept date",signature="<base64>"`. The signing string is built from
 * exactly the headers the request names, in that order, one `name: value` line each;
 * `(request-target)` is `<lower-case method> <path and query>`. Pure functions; the access-key
 * lookup, clock and replay checks are in `accessKeys.ts`.
 */
export interface SignatureParams {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
}

export const SIGNATURE_ALGORITHM = 'hmac-sha256';

/** The parameters of a `Signature` authorization (after the scheme word), or undefined when malformed. */
export function parseSignature(credentials: string): SignatureParams | undefined {
  const params = new Map<string, string>();
  const re = /\s*([A-Za-z]+)="([^"]*)"\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(credentials)) !== null) {
    if (params.has(m[1]!)) return undefined;
    params.set(m[1]!, m[2]!);
    end = re.lastIndex;
    if (end >= credentials.length) break;
  }
  if (end !== credentials.length) return undefined;
  const keyId = params.get('keyId');
  const signature = params.get('signature');
  if (!keyId || !signature) return undefined;
  // Without `headers` the draft signs `date` only; the contract then refuses it (no request-target).
  const headers = (params.get('headers') ?? 'date').toLowerCase().split(/\s+/).filter(Boolean);
  if (headers.length === 0) return undefined;
  return { keyId, algorithm: (params.get('algorithm') ?? SIGNATURE_ALGORITHM).toLowerCase(), headers, signature };
}

/** The signing string, or `{ missing }` naming a listed header the request does not carry. */
export function signingString(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  names: string[],
): { text: string } | { missing: string } {
  const lines: string[] = [];
  for (const name of names) {
    if (name === '(request-target)') {
      lines.push(`(request-target): ${method.toLowerCase()} ${url}`);
      continue;
    }
    const value = headers[name];
    if (value === undefined) return { missing: name };
    lines.push(`${name}: ${Array.isArray(value) ? value.join(', ') : value.trim()}`);
  }
  return { text: lines.join('\n') };
}

export function hmacSignature(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('base64');
}

/** Constant-time comparison of the expected and the sent base64 signature. */
export function signatureMatches(expected: string, sent: string): boolean {
  const a = Buffer.from(expected, 'base64');
  const b = Buffer.from(sent, 'base64');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
