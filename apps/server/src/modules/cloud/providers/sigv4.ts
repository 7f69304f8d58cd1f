import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for a request with a body (the EC2 query API is a form POST), by
 * node:crypto: no AWS SDK for EC2 is installed. The steps and names are AWS's ("Create a canonical
 * request", "Create a string to sign", "Calculate the signature"); `sigv4.test.ts` checks the
 * documented example of the test suite.
 */
export interface SignInput {
  method: string;
  host: string;
  path: string;
  query?: string;
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `YYYYMMDDTHHMMSSZ`. */
  amzDate: string;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s, 'utf8').digest();

export const amzDate = (d = new Date()) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** The `Authorization` header (and the headers it signed) for the request. */
export function signV4(i: SignInput): { authorization: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...i.headers, host: i.host, 'x-amz-date': i.amzDate };
  const names = Object.keys(headers)
    .map((k) => k.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalHeaders = names.map((k) => `${k}:${String(lower[k]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonical = [i.method, i.path, i.query ?? '', canonicalHeaders, signedHeaders, sha256(i.body)].join('\n');
  const day = i.amzDate.slice(0, 8);
  const scope = `${day}/${i.region}/${i.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', i.amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${i.secretAccessKey}`, day), i.region), i.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=${i.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    headers,
  };
}
