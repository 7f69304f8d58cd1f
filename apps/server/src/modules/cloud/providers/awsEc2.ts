import type { CloudInstance } from '../strategy.ts';
import { CloudError, type CloudProvider, type ProviderContext } from './provider.ts';
import { amzDate, signV4 } from './sigv4.ts';
import { child, items, parseXml, textOf, type XmlNode } from './miniXml.ts';

/**
 * AWS EC2 through its query API (`DescribeRegions`, `DescribeInstances`, API version 2016-11-15),
 * signed with SigV4 by node:crypto (sigv4.ts). Instances come page by page (`MaxResults` 1000,
 * `NextToken`), each page read and handed on before the next is asked for. Throttling answers
 * (`RequestLimitExceeded`, `Throttling`, HTTP 503) are retried `RETRIES` times with a doubling
 * wait; an answer that is not the API's XML is "garbage"; `AuthFailure` and its kin are wrong
 * credentials. Terminated and shutting-down instances are not listed (so their assets are released).
 * The address is the private IP, else the public one.
 */
const VERSION = '2016-11-15';
const PAGE = 1000;
const MAX_BODY = 20 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 20_000;
const AUTH_CODES = [
  'AuthFailure',
  'UnauthorizedOperation',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'OptInRequired',
];
const THROTTLE_CODES = [
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'ServiceUnavailable',
  'Unavailable',
];

export interface Ec2Options {
  /** The endpoint of a region (`https://ec2.<region>.amazonaws.com`). */
  endpoint: (region: string) => string;
  /** Region asked for the region list. */
  home: string;
  retries?: number;
  /** First wait after a throttling answer, doubled each time. */
  backoffMs?: number;
  /** How long one request may take (20 s). */
  timeoutMs?: number;
}

export const AWS_INTERNATIONAL: Ec2Options = {
  endpoint: (r) => `https://ec2.${r}.amazonaws.com`,
  home: 'us-east-1',
};
export const AWS_CHINA: Ec2Options = { endpoint: (r) => `https://ec2.${r}.amazonaws.com.cn`, home: 'cn-north-1' };

const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

export function createEc2Provider(name: string, o: Ec2Options): CloudProvider {
  const retries = o.retries ?? 4;
  const backoff = o.backoffMs ?? 500;
  const timeoutMs = o.timeoutMs ?? REQUEST_TIMEOUT_MS;

  async function call(ctx: ProviderContext, region: string, params: Record<string, string>): Promise<XmlNode> {
    if (!REGION.test(region)) throw new CloudError('unknown_region', { region });
    const url = new URL(o.endpoint(region));
    const body = new URLSearchParams({ ...params, Version: VERSION }).toString();
    for (let attempt = 0; ; attempt++) {
      const signed = signV4({
        method: 'POST',
        host: url.host,
        path: '/',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body,
        region,
        service: 'ec2',
        accessKeyId: String(ctx.attrs.access_key_id ?? ''),
        secretAccessKey: ctx.secrets.access_key_secret ?? '',
        amzDate: amzDate(),
      });
      let status: number;
      let text: string;
      try {
        const res = await fetch(new URL('/', url), {
          method: 'POST',
          headers: { ...signed.headers, authorization: signed.authorization },
          body,
          signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]),
        });
        status = res.status;
        const len = Number(res.headers.get('content-length') ?? 0);
        if (len > MAX_BODY) throw new CloudError('provider_garbage', { detail: `${len} bytes` });
        text = await res.text();
        if (text.length > MAX_BODY) throw new CloudError('provider_garbage', { detail: `${text.length} bytes` });
      } catch (e) {
        if (e instanceof CloudError) throw e;
        const err = e as Error;
        throw new CloudError('provider_unreachable', {
          detail: err.name === 'TimeoutError' ? 'timed out' : err.message,
        });
      }
      let doc: XmlNode;
      try {
        doc = parseXml(text);
      } catch (e) {
        throw new CloudError('provider_garbage', { detail: `HTTP ${status}: ${(e as Error).message}` });
      }
      const error = child(child(doc, 'Errors'), 'Error');
      const code = error ? textOf(error, 'Code') : '';
      if (THROTTLE_CODES.includes(code) || status === 503) {
        if (attempt >= retries) throw new CloudError('provider_throttled', { detail: code || `HTTP ${status}` });
        await new Promise((r) => setTimeout(r, backoff * 2 ** attempt));
        continue;
      }
      if (error) {
        const detail = `${code}: ${textOf(error, 'Message')}`.slice(0, 300);
        throw new CloudError(AUTH_CODES.includes(code) ? 'bad_credentials' : 'provider_unreachable', { detail });
      }
      if (status !== 200 || doc.name !== `${params.Action}Response`)
        throw new CloudError('provider_garbage', { detail: `HTTP ${status} <${doc.name}>` });
      return doc;
    }
  }

  const instanceOf = (n: XmlNode, region: string): CloudInstance | undefined => {
    const state = textOf(child(n, 'instanceState'), 'name');
    if (state === 'terminated' || state === 'shutting-down') return undefined;
    const tags: Record<string, string> = {};
    for (const t of items(child(n, 'tagSet'))) tags[textOf(t, 'key').slice(0, 128)] = textOf(t, 'value').slice(0, 256);
    const id = textOf(n, 'instanceId');
    return {
      instance_id: id,
      name: tags.Name || id,
      address: textOf(n, 'privateIpAddress') || textOf(n, 'ipAddress'),
      region,
      os: textOf(n, 'platform') === 'windows' ? 'windows' : 'linux',
      tags,
    };
  };

  return {
    name,
    attrs: ['access_key_id'],
    secretAttrs: ['access_key_secret'],
    check(attrs) {
      const id = String(attrs.access_key_id ?? '');
      if (!/^[A-Z0-9]{16,128}$/.test(id))
        return { field: 'access_key_id', key: 'bad_credentials', params: { detail: 'access_key_id' } };
      return undefined;
    },
    async test(ctx) {
      await this.regions(ctx);
    },
    async regions(ctx) {
      const doc = await call(ctx, o.home, { Action: 'DescribeRegions' });
      return items(child(doc, 'regionInfo'))
        .map((r) => textOf(r, 'regionName'))
        .filter((r) => REGION.test(r));
    },
    async *instances(ctx, region) {
      let token = '';
      do {
        const doc = await call(ctx, region, {
          Action: 'DescribeInstances',
          MaxResults: String(PAGE),
          ...(token ? { NextToken: token } : {}),
        });
        for (const reservation of items(child(doc, 'reservationSet')))
          for (const n of items(child(reservation, 'instancesSet'))) {
            const i = instanceOf(n, region);
            if (i) yield i;
          }
        token = textOf(doc, 'nextToken');
      } while (token && !ctx.signal.aborted);
    },
  };
}
