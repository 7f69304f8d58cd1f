import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signV4 } from './sigv4.ts';
import { createEc2Provider } from './awsEc2.ts';
import { CloudError, type ProviderContext } from './provider.ts';
import type { CloudInstance } from '../strategy.ts';

/**
 * The EC2 adapter against a LOCAL STAND-IN of the EC2 query API (EC2 cannot be reached from here;
 * nothing of this stand-in ships). It answers DescribeRegions and DescribeInstances as documented
 * (API 2016-11-15: XML, `reservationSet/item/instancesSet/item`, `nextToken` pages of at most
 * `MaxResults`), checks each request's SigV4 signature with the secret it knows (a wrong secret gets
 * `SignatureDoesNotMatch`, an unknown key `AuthFailure`), and can throttle (`RequestLimitExceeded`,
 * HTTP 503), answer garbage or never answer.
 */
const KEY = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
let server: http.Server;
let endpoint = '';
const standIn = {
  instances: [] as { id: string; name?: string; ip: string; state: string; windows?: boolean }[],
  throttle: 0,
  garbage: false,
  silent: false,
  pages: [] as string[],
};

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>r</RequestID></Response>`;

function answer(params: URLSearchParams): string {
  const ns = 'xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"';
  if (params.get('Action') === 'DescribeRegions')
    return `<DescribeRegionsResponse ${ns}><requestId>1</requestId><regionInfo>${['us-east-1', 'eu-west-1']
      .map((r) => `<item><regionName>${r}</regionName><regionEndpoint>ec2.${r}.amazonaws.com</regionEndpoint></item>`)
      .join('')}</regionInfo></DescribeRegionsResponse>`;
  const size = Math.min(1000, Number(params.get('MaxResults') ?? 1000));
  const start = Number(params.get('NextToken') ?? 0);
  standIn.pages.push(String(start));
  const page = standIn.instances.slice(start, start + size);
  const next = start + size < standIn.instances.length ? `<nextToken>${start + size}</nextToken>` : '';
  // Two instances per reservation, as EC2 groups instances launched together.
  let reservations = '';
  for (let i = 0; i < page.length; i += 2)
    reservations += `<item><reservationId>r-${start + i}</reservationId><instancesSet>${page
      .slice(i, i + 2)
      .map(
        (x) =>
          `<item><instanceId>${x.id}</instanceId><instanceState><code>16</code><name>${x.state}</name></instanceState><privateIpAddress>${x.ip}</privateIpAddress>${x.windows ? '<platform>windows</platform>' : ''}<tagSet>${x.name ? `<item><key>Name</key><value>${x.name}</value></item>` : ''}<item><key>env</key><value>prod &amp; more</value></item></tagSet></item>`,
      )
      .join('')}</instancesSet></item>`;
  return `<DescribeInstancesResponse ${ns}><requestId>2</requestId><reservationSet>${reservations}</reservationSet>${next}</DescribeInstancesResponse>`;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (standIn.silent) return;
      const send = (code: number, text: string) => res.writeHead(code, { 'content-type': 'text/xml' }).end(text);
      if (standIn.garbage) return send(200, '<html><body>Gateway says hello');
      if (standIn.throttle > 0) {
        standIn.throttle -= 1;
        return send(503, xmlError('RequestLimitExceeded', 'Request limit exceeded.'));
      }
      const auth = String(req.headers.authorization ?? '');
      const m = /Credential=([^/]+)\/(\d{8})\/([^/]+)\/ec2\/aws4_request/.exec(auth);
      if (!m || m[1] !== KEY)
        return send(401, xmlError('AuthFailure', 'AWS was not able to validate the provided access credentials'));
      const expected = signV4({
        method: 'POST',
        host: String(req.headers.host),
        path: '/',
        headers: { 'content-type': String(req.headers['content-type']) },
        body,
        region: m[3]!,
        service: 'ec2',
        accessKeyId: KEY,
        secretAccessKey: SECRET,
        amzDate: String(req.headers['x-amz-date']),
      });
      if (expected.authorization !== auth)
        return send(403, xmlError('SignatureDoesNotMatch', 'The request signature we calculated does not match'));
      send(200, answer(new URLSearchParams(body)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => Object.assign(standIn, { throttle: 0, garbage: false, silent: false, pages: [] }));

const provider = createEc2Provider('aws_international', {
  endpoint: () => endpoint,
  home: 'us-east-1',
  backoffMs: 5,
  timeoutMs: 500,
});
const ctx = (secret = SECRET, key = KEY): ProviderContext => ({
  attrs: { access_key_id: key },
  secrets: { access_key_secret: secret },
  signal: new AbortController().signal,
});

async function all(region = 'eu-west-1', c = ctx()): Promise<CloudInstance[]> {
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

describe('EC2 adapter against a local stand-in of the EC2 query API', () => {
  it('lists regions with signed requests', async () => {
    expect(await provider.regions(ctx())).toEqual(['us-east-1', 'eu-west-1']);
  });

  it('reads 2,500 instances in three pages, leaving out terminated ones', async () => {
    standIn.instances = Array.from({ length: 2500 }, (_v, i) => ({
      id: `i-${i.toString(16).padStart(8, '0')}`,
      name: i % 2 ? `web-${i}` : undefined,
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      state: i % 100 === 99 ? 'terminated' : 'running',
      windows: i === 2,
    }));
    const list = await all();
    expect(standIn.pages).toEqual(['0', '1000', '2000']);
    expect(list).toHaveLength(2475);
    expect(list[0]).toEqual({
      instance_id: 'i-00000000',
      name: 'i-00000000',
      address: '10.0.0.0',
      region: 'eu-west-1',
      os: 'linux',
      tags: { env: 'prod & more' },
    });
    expect(list[1]).toMatchObject({ name: 'web-1', tags: { Name: 'web-1' } });
    expect(list[2]).toMatchObject({ os: 'windows' });
  });

  it('waits out throttling answers, and says so when they do not stop', async () => {
    standIn.instances = [{ id: 'i-1', ip: '10.0.0.1', state: 'running' }];
    standIn.throttle = 2;
    expect(await all()).toHaveLength(1);
    standIn.throttle = 100;
    const e = await failure(all());
    expect(e.key).toBe('provider_throttled');
  });

  it('tells wrong credentials apart: an unknown key and a wrong secret', async () => {
    expect((await failure(provider.test(ctx(SECRET, 'AKIAUNKNOWNKEY00000')))).params.detail).toMatch(/^AuthFailure/);
    const wrong = await failure(provider.test(ctx('not-the-secret')));
    expect(wrong.key).toBe('bad_credentials');
    expect(wrong.params.detail).toMatch(/^SignatureDoesNotMatch/);
  });

  it('reports a page of garbage, a silent provider and an unknown region', async () => {
    standIn.garbage = true;
    expect((await failure(all())).key).toBe('provider_garbage');
    standIn.garbage = false;
    standIn.silent = true;
    const slow = await failure(all());
    expect(slow).toMatchObject({ key: 'provider_unreachable', params: { detail: 'timed out' } });
    standIn.silent = false;
    expect((await failure(all('mars'))).key).toBe('unknown_region');
  });
});
