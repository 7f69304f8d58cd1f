import { randomUUID } from 'node:crypto';
import type { CloudInstance } from '../strategy.ts';
import { CloudError, type CloudProvider, type ProviderContext } from './provider.ts';
import { signRpc } from './aliyunSign.ts';
import { arr, obj, requestJson, sleep, str } from './httpJson.ts';

/**
 * Alibaba Cloud ECS through its RPC-style API (version 2014-05-26, JSON answers): signed GETs
 * (aliyunSign.ts, a fresh `SignatureNonce` per request, retries included), `DescribeRegions` at the
 * central endpoint and `DescribeInstances` at each region's, page by page (`MaxResults` 100 and
 * `NextToken`, each page handed on before the next is asked for). Throttling (`Throttling*`,
 * `ServiceUnavailable`, HTTP 503) is retried `retries` times with a doubling wait; access-key and
 * signature errors are wrong credentials. Released instances are no longer listed (so their assets
 * are released); stopped ones are, as stopped EC2 instances are. The address is the VPC (or classic
 * inner) private IP, else the public or elastic IP; tags and the OS as ECS reports them.
 */
const VERSION = '2014-05-26';
const PAGE = 100;
const MAX_PAGES = 10_000;
const REGION = /^[a-z]{2,3}(-[a-z0-9]+){1,4}$/;
const AUTH_CODES = /^(InvalidAccessKeyId|SignatureDoesNotMatch|IncompleteSignature|Forbidden|InvalidAccessKeySecret)/;
const THROTTLE_CODES = /^(Throttling|ServiceUnavailable)/;

export interface EcsOptions {
  /** Where `DescribeRegions` is asked (`https://ecs.aliyuncs.com`). */
  home: string;
  /** A region's endpoint (`https://ecs.<region>.aliyuncs.com`). */
  endpoint: (region: string) => string;
  retries?: number;
  backoffMs?: number;
  timeoutMs?: number;
}

export const ALIYUN: EcsOptions = {
  home: 'https://ecs.aliyuncs.com',
  endpoint: (r) => `https://ecs.${r}.aliyuncs.com`,
};

/** ECS's `{IpAddress: [...]}` lists (a bare string for an elastic IP). */
const firstIp = (o: Record<string, unknown>): string => {
  const v = o.IpAddress;
  const first: unknown = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : '';
};

export const timestamp = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function createEcsProvider(name: string, o: EcsOptions): CloudProvider {
  const retries = o.retries ?? 4;
  const backoff = o.backoffMs ?? 500;
  const timeoutMs = o.timeoutMs ?? 20_000;

  async function call(
    ctx: ProviderContext,
    base: string,
    params: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const all: Record<string, string> = {
        ...params,
        Format: 'JSON',
        Version: VERSION,
        AccessKeyId: String(ctx.attrs.access_key_id ?? ''),
        SignatureMethod: 'HMAC-SHA1',
        SignatureVersion: '1.0',
        SignatureNonce: randomUUID(),
        Timestamp: timestamp(),
      };
      all.Signature = signRpc('GET', all, ctx.secrets.access_key_secret ?? '');
      const a = await requestJson(`${base}/?${new URLSearchParams(all).toString()}`, {}, ctx.signal, timeoutMs);
      const code = str(a.json, 'Code');
      if (THROTTLE_CODES.test(code) || a.status === 503) {
        if (attempt >= retries) throw new CloudError('provider_throttled', { detail: code || `HTTP ${a.status}` });
        await sleep(backoff * 2 ** attempt, ctx.signal);
        continue;
      }
      if (a.status !== 200 || code) {
        if (!code) throw new CloudError('provider_garbage', { detail: `HTTP ${a.status}` });
        const detail = `${code}: ${str(a.json, 'Message')}`.slice(0, 300);
        throw new CloudError(AUTH_CODES.test(code) ? 'bad_credentials' : 'provider_unreachable', { detail });
      }
      return a.json as Record<string, unknown>;
    }
  }

  const instanceOf = (n: unknown, region: string): CloudInstance | undefined => {
    const id = str(n, 'InstanceId');
    if (!id) return undefined;
    const tags: Record<string, string> = {};
    for (const t of arr(obj(n, 'Tags'), 'Tag') ?? [])
      tags[str(t, 'TagKey').slice(0, 128)] = str(t, 'TagValue').slice(0, 256);
    const address =
      firstIp(obj(obj(n, 'VpcAttributes'), 'PrivateIpAddress')) ||
      firstIp(obj(n, 'InnerIpAddress')) ||
      firstIp(obj(n, 'PublicIpAddress')) ||
      firstIp(obj(n, 'EipAddress'));
    const os = str(n, 'OSType').toLowerCase();
    return {
      instance_id: id,
      name: str(n, 'InstanceName') || id,
      address,
      region,
      os: os === 'windows' || os === 'linux' ? os : '',
      tags,
    };
  };

  return {
    name,
    attrs: ['access_key_id'],
    secretAttrs: ['access_key_secret'],
    check(attrs) {
      if (!/^[A-Za-z0-9]{12,64}$/.test(String(attrs.access_key_id ?? '')))
        return { field: 'access_key_id', key: 'bad_attr', params: { field: 'access_key_id' } };
      return undefined;
    },
    async test(ctx) {
      await this.regions(ctx);
    },
    async regions(ctx) {
      const doc = await call(ctx, o.home, { Action: 'DescribeRegions' });
      const list = arr(obj(doc, 'Regions'), 'Region');
      if (!list) throw new CloudError('provider_garbage', { detail: 'no Regions.Region list' });
      return list.map((r) => str(r, 'RegionId')).filter((r) => REGION.test(r));
    },
    async *instances(ctx, region) {
      if (!REGION.test(region)) throw new CloudError('unknown_region', { region });
      let token = '';
      for (let page = 0; page === 0 || (token && !ctx.signal.aborted); page++) {
        if (page >= MAX_PAGES) throw new CloudError('provider_garbage', { detail: `more than ${MAX_PAGES} pages` });
        const doc = await call(ctx, o.endpoint(region), {
          Action: 'DescribeInstances',
          RegionId: region,
          MaxResults: String(PAGE),
          ...(token ? { NextToken: token } : {}),
        });
        const list = arr(obj(doc, 'Instances'), 'Instance');
        if (!list) throw new CloudError('provider_garbage', { detail: 'no Instances.Instance list' });
        for (const n of list) {
          const i = instanceOf(n, region);
          if (i) yield i;
        }
        token = str(doc, 'NextToken');
      }
    },
  };
}
