import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAliyunStandIn, type AliyunStandIn } from '../../../../test-support/aliyunStandIn.ts';
import { createEcsProvider, timestamp } from './aliyunEcs.ts';
import { CloudError, type CloudProvider, type ProviderContext } from './provider.ts';
import type { CloudInstance } from '../strategy.ts';

/**
 * The Alibaba Cloud ECS adapter against a LOCAL STAND-IN of the ECS RPC API
 * (test-support/aliyunStandIn.ts, answering as Alibaba Cloud documents it and checking every
 * signature; Alibaba Cloud cannot be reached from here and nothing of the stand-in ships).
 */
let ecs: AliyunStandIn;
let provider: CloudProvider;

beforeAll(async () => {
  ecs = await startAliyunStandIn();
  provider = createEcsProvider('aliyun', { home: ecs.url, endpoint: () => ecs.url, backoffMs: 5, timeoutMs: 500 });
});
afterAll(() => ecs?.close());
beforeEach(() => Object.assign(ecs, { throttle: 0, garbage: false, silent: false, pages: [] }));

const ctx = (secret = ecs.secret, key = ecs.keyId): ProviderContext => ({
  attrs: { access_key_id: key },
  secrets: { access_key_secret: secret },
  signal: new AbortController().signal,
});

async function all(region = 'cn-hangzhou', c = ctx()): Promise<CloudInstance[]> {
  const out: CloudInstance[] = [];
  for await (const i of provider.instances(c, region)) out.push(i);
  return out;
}

async function failure(p: Promise<unknown>): Promise<CloudError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CloudError);
  return e as CloudError;
}

describe('Alibaba Cloud ECS adapter against a local stand-in of the ECS RPC API', () => {
  it('signs with a documented timestamp and lists the regions', async () => {
    expect(timestamp(new Date('2016-02-23T12:46:24.123Z'))).toBe('2016-02-23T12:46:24Z');
    expect(await provider.regions(ctx())).toEqual(['cn-hangzhou', 'ap-southeast-1']);
  });

  it('reads 250 instances in three pages, then no longer lists a released one', async () => {
    ecs.instances = Array.from({ length: 250 }, (_v, i) => ({
      id: `i-bp1${i.toString(36).padStart(5, '0')}`,
      name: i === 0 ? '' : `web-${i}`,
      region: 'cn-hangzhou',
      vpcIp: i === 1 ? undefined : `172.16.${i >> 8}.${i & 255}`,
      publicIp: i === 1 ? '47.96.1.1' : undefined,
      os: i === 2 ? 'windows' : 'linux',
      tags: i === 3 ? { env: 'prod' } : undefined,
      status: i === 4 ? 'Stopped' : 'Running',
    }));
    ecs.instances.push({ id: 'i-sg1', region: 'ap-southeast-1', vpcIp: '10.0.0.9' });
    const list = await all();
    expect(ecs.pages).toEqual(['', '100', '200']);
    expect(list).toHaveLength(250);
    expect(list[0]).toEqual({
      instance_id: 'i-bp100000',
      name: 'i-bp100000',
      address: '172.16.0.0',
      region: 'cn-hangzhou',
      os: 'linux',
      tags: {},
    });
    expect(list[1]).toMatchObject({ name: 'web-1', address: '47.96.1.1' });
    expect(list[2]).toMatchObject({ os: 'windows' });
    expect(list[3]).toMatchObject({ tags: { env: 'prod' } });
    expect(list[4]).toMatchObject({ name: 'web-4' });
    // Released: ECS lists it no more.
    ecs.instances.splice(5, 1);
    const after = await all();
    expect(after).toHaveLength(249);
    expect(after.map((i) => i.name)).not.toContain('web-5');
    expect((await all('ap-southeast-1')).map((i) => i.address)).toEqual(['10.0.0.9']);
  });

  it('waits out throttling with a fresh nonce per try, and says so when it does not stop', async () => {
    ecs.throttle = 2;
    expect(await provider.regions(ctx())).toHaveLength(2);
    ecs.throttle = 100;
    const e = await failure(provider.regions(ctx()));
    expect(e).toMatchObject({ key: 'provider_throttled', params: { detail: 'Throttling.User' } });
  });

  it('tells wrong credentials apart: an unknown key and a wrong secret', async () => {
    const key = await failure(provider.test(ctx(ecs.secret, 'LTAI5tUnknownKey0000')));
    expect(key).toMatchObject({
      key: 'bad_credentials',
      params: { detail: expect.stringMatching(/^InvalidAccessKeyId/) },
    });
    const secret = await failure(provider.test(ctx('wrong')));
    expect(secret).toMatchObject({
      key: 'bad_credentials',
      params: { detail: expect.stringMatching(/^SignatureDoesNotMatch/) },
    });
    expect(provider.check({ access_key_id: 'short' }, {})).toMatchObject({ field: 'access_key_id', key: 'bad_attr' });
  });

  it('reports garbage, a silent provider and an unknown region', async () => {
    ecs.garbage = true;
    expect((await failure(all())).key).toBe('provider_garbage');
    ecs.garbage = false;
    ecs.silent = true;
    expect(await failure(all())).toMatchObject({ key: 'provider_unreachable', params: { detail: 'timed out' } });
    ecs.silent = false;
    expect((await failure(all('cn-hangzhou.evil.example/'))).key).toBe('unknown_region');
  });
});
