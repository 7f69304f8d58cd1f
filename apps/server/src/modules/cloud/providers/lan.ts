import net from 'node:net';
import type { CloudInstance } from '../strategy.ts';
import { CloudError, type AttrProblem, type CloudProvider, type ProviderContext, type TcpProbe } from './provider.ts';
import { addresses, checkGroup, MAX_LAN_ADDRESSES } from './ipRanges.ts';

/**
 * The `lan` provider (console reference §3.12): every address of `ip_group` answering a TCP
 * connection on `test_port` within `test_timeout` seconds becomes an instance named
 * `hostname_prefix` + address. Probed from the Gatehouse host by plain TCP connects (node:net),
 * `PROBES` at a time: no nmap process, no shell, and the same result on every platform. With a
 * `domain`, through that domain's gateway instead (`ctx.probe`, gatewayProbe.ts), and the hosts
 * found belong to the domain.
 */
const PROBES = 64;
export const LAN_REGION = 'lan';

const probe: TcpProbe = (host, port, timeoutMs, signal) => {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const s = net.connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      s.destroy();
      resolve(ok);
    };
    const stop = () => done(false);
    const timer = setTimeout(stop, timeoutMs);
    signal.addEventListener('abort', stop);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
};

const listOf = (v: unknown): string[] =>
  (Array.isArray(v) ? v : String(v ?? '').split(/[\s,]+/)).map((x) => String(x).trim()).filter(Boolean);

export const lanProvider: CloudProvider = {
  name: 'lan',
  attrs: ['ip_group', 'test_port', 'test_timeout', 'hostname_prefix', 'domain'],
  secretAttrs: [],
  check(attrs): AttrProblem | undefined {
    const group = listOf(attrs.ip_group);
    const g = checkGroup(group);
    if (!g.ok)
      return g.bad
        ? { field: 'ip_group', key: 'lan_bad_entry', params: { entry: g.bad } }
        : { field: 'ip_group', key: 'lan_too_many', params: { max: MAX_LAN_ADDRESSES } };
    attrs.ip_group = group;
    const port = Number(attrs.test_port ?? 22);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return { field: 'test_port', key: 'lan_bad_port' };
    attrs.test_port = port;
    const timeout = Number(attrs.test_timeout ?? 1);
    if (!Number.isFinite(timeout) || timeout < 0.1 || timeout > 10)
      return { field: 'test_timeout', key: 'lan_bad_timeout' };
    attrs.test_timeout = timeout;
    const prefix = String(attrs.hostname_prefix ?? '');
    if (prefix.length > 64) return { field: 'hostname_prefix', key: 'lan_bad_prefix' };
    attrs.hostname_prefix = prefix;
    const domain = String(attrs.domain ?? '').trim();
    if (domain.length > 64) return { field: 'domain', key: 'lan_no_gateway', params: { domain } };
    if (domain) attrs.domain = domain;
    else delete attrs.domain;
    return undefined;
  },
  async test(ctx) {
    if (this.check({ ...ctx.attrs }, {})) throw new CloudError('lan_bad_attrs');
  },
  async regions() {
    return [LAN_REGION];
  },
  async *instances(ctx: ProviderContext, region: string): AsyncGenerator<CloudInstance> {
    if (region !== LAN_REGION) throw new CloudError('unknown_region', { region });
    const g = checkGroup(listOf(ctx.attrs.ip_group));
    if (!g.ok) throw new CloudError('lan_bad_attrs');
    const port = Number(ctx.attrs.test_port);
    const timeoutMs = Number(ctx.attrs.test_timeout) * 1000;
    const prefix = String(ctx.attrs.hostname_prefix ?? '');
    let batch: string[] = [];
    const flush = async () => {
      const reach = ctx.probe ?? probe;
      const alive = await Promise.all(batch.map((a) => reach(a, port, timeoutMs, ctx.signal)));
      const found = batch.filter((_a, i) => alive[i]);
      batch = [];
      return found;
    };
    const instance = (address: string): CloudInstance => ({
      instance_id: address,
      name: `${prefix}${address}`,
      address,
      region: LAN_REGION,
      os: '',
      tags: {},
    });
    for (const a of addresses(g.ranges)) {
      batch.push(a);
      if (batch.length >= PROBES) for (const f of await flush()) yield instance(f);
      if (ctx.signal.aborted) return;
    }
    for (const f of await flush()) yield instance(f);
  },
};
