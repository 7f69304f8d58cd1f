import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRpc } from '../src/modules/cloud/providers/aliyunSign.ts';

/**
 * A LOCAL STAND-IN of Alibaba Cloud's ECS RPC API (version 2014-05-26, `Format=JSON`; Alibaba Cloud
 * cannot be reached from here and nothing of it ships), answering as its documentation shows:
 * every request's HMAC-SHA1 signature is recomputed with the secret it knows (an unknown key is
 * 404 `InvalidAccessKeyId.NotFound`, a wrong signature 400 `SignatureDoesNotMatch`, a nonce used
 * twice 400 `SignatureNonceUsed`); `DescribeRegions` answers `{Regions: {Region: [...]}}` and
 * `DescribeInstances` `{Instances: {Instance: [...]}, NextToken}` pages of at most `MaxResults`
 * (100); errors are `{RequestId, Code, Message}`; it can throttle (400 `Throttling.User`), answer
 * garbage or not at all.
 */
export interface EcsInstance {
  id: string;
  name?: string;
  region: string;
  vpcIp?: string;
  publicIp?: string;
  os?: 'linux' | 'windows';
  tags?: Record<string, string>;
  status?: string;
}

export interface AliyunStandIn {
  url: string;
  keyId: string;
  secret: string;
  instances: EcsInstance[];
  throttle: number;
  garbage: boolean;
  silent: boolean;
  /** The NextToken of each DescribeInstances asked for ('' for the first page). */
  pages: string[];
  close(): Promise<void>;
}

export async function startAliyunStandIn(): Promise<AliyunStandIn> {
  const nonces = new Set<string>();
  const s: AliyunStandIn = {
    url: '',
    keyId: 'LTAI5tStandInKey0001',
    secret: 'StandInSecret0000000000000000',
    instances: [],
    throttle: 0,
    garbage: false,
    silent: false,
    pages: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const ipList = (ip?: string) => ({ IpAddress: ip ? [ip] : [] });
  const instanceJson = (i: EcsInstance) => ({
    InstanceId: i.id,
    InstanceName: i.name ?? '',
    RegionId: i.region,
    ZoneId: `${i.region}-a`,
    Status: i.status ?? 'Running',
    OSType: i.os ?? 'linux',
    InstanceType: 'ecs.g7.large',
    VpcAttributes: { VpcId: 'vpc-1', PrivateIpAddress: ipList(i.vpcIp) },
    InnerIpAddress: ipList(),
    PublicIpAddress: ipList(i.publicIp),
    EipAddress: { IpAddress: '', AllocationId: '' },
    Tags: { Tag: Object.entries(i.tags ?? {}).map(([TagKey, TagValue]) => ({ TagKey, TagValue })) },
  });

  const server = http.createServer((req, res) => {
    if (s.silent) return;
    const send = (status: number, json: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(json));
    const fail = (status: number, Code: string, Message: string) =>
      send(status, { RequestId: 'R1', HostId: 'ecs.aliyuncs.com', Code, Message });
    if (s.garbage) return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Gateway says hello');
    const q = Object.fromEntries(new URL(req.url!, 'http://x').searchParams);
    if (s.throttle > 0) {
      s.throttle -= 1;
      return fail(400, 'Throttling.User', 'Request was denied due to user flow control.');
    }
    if (q.AccessKeyId !== s.keyId)
      return fail(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    const { Signature: signature, ...signed } = q;
    if (signature !== signRpc(req.method ?? 'GET', signed, s.secret))
      return fail(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
    if (!q.SignatureNonce || nonces.has(q.SignatureNonce))
      return fail(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    nonces.add(q.SignatureNonce);
    if (q.Format !== 'JSON' || q.Version !== '2014-05-26') return fail(400, 'InvalidParameter', 'Format or Version');
    if (q.Action === 'DescribeRegions')
      return send(200, {
        RequestId: 'R2',
        Regions: {
          Region: ['cn-hangzhou', 'ap-southeast-1'].map((r) => ({
            RegionId: r,
            LocalName: r,
            RegionEndpoint: `ecs.${r}.aliyuncs.com`,
          })),
        },
      });
    if (q.Action === 'DescribeInstances') {
      const size = Math.min(100, Number(q.MaxResults ?? 10));
      const start = Number(q.NextToken || 0);
      s.pages.push(q.NextToken ?? '');
      const all = s.instances.filter((i) => i.region === q.RegionId);
      const page = all.slice(start, start + size);
      return send(200, {
        RequestId: 'R3',
        TotalCount: all.length,
        NextToken: start + size < all.length ? String(start + size) : '',
        Instances: { Instance: page.map(instanceJson) },
      });
    }
    fail(404, 'InvalidAction.NotFound', `Specified api is not found: ${q.Action}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}
