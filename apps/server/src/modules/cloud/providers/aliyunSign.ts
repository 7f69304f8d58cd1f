import { createHmac } from 'node:crypto';

/**
 * Alibaba Cloud's RPC-style request signature (signature version 1.0, HMAC-SHA1), as its ECS API
 * documents it ("Request signatures"): the parameters sorted by name, each name and value
 * percent-encoded (RFC 3986: only `A-Za-z0-9-_.~` stay), joined as a query, then
 * `METHOD&%2F&<that query, encoded again>` signed with `<secret>&` and Base64-encoded.
 * aliyunSign.test.ts checks it against the documented DescribeRegions example.
 */
export const percentEncode = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const canonicalQuery = (params: Record<string, string>): string =>
  Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
    .join('&');

export const stringToSign = (method: string, params: Record<string, string>): string =>
  `${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`;

export const signRpc = (method: string, params: Record<string, string>, secret: string): string =>
  createHmac('sha1', `${secret}&`).update(stringToSign(method, params)).digest('base64');
