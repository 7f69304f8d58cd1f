import type { CloudInstance } from '../strategy.ts';
import { CloudError, type CloudProvider, type ProviderContext } from './provider.ts';
import { arr, obj, requestJson, sleep, str, tagsOf } from './httpJson.ts';

/**
 * Azure virtual machines through plain REST (no SDK): a token by the OAuth2 client-credentials grant
 * of Microsoft Entra ID (`<login>/<tenant>/oauth2/v2.0/token`, scope `<ARM>/.default`), then Azure
 * Resource Manager: `subscriptions/<id>/locations` (the regions) and, per region,
 * `providers/Microsoft.Compute/locations/<region>/virtualMachines` page by page (`nextLink`, only
 * ever on the ARM host). A region's network interfaces and public IPs are listed once, when its
 * first virtual machine comes, and kept for that region only (id -> address). The address is the
 * primary interface's private IP, else its public one; VMs being deleted are not listed (so their
 * assets are released); stopped and deallocated VMs are listed, as stopped EC2 instances are.
 * HTTP 429 and 503 are retried `retries` times after their `Retry-After` (capped) or a doubling wait.
 */
const API_LOCATIONS = '2022-12-01';
const API_COMPUTE = '2024-07-01';
const API_NETWORK = '2023-09-01';
const MAX_PAGES = 10_000;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TENANT = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9][a-z0-9.-]{0,126}\.[a-z]{2,})$/i;
const REGION = /^[a-z][a-z0-9]{1,39}$/;
const AUTH_CODES = [
  'InvalidAuthenticationToken',
  'AuthenticationFailed',
  'AuthorizationFailed',
  'SubscriptionNotFound',
];

export interface AzureOptions {
  /** Entra ID's host (`https://login.microsoftonline.com`). */
  login: string;
  /** Resource Manager (`https://management.azure.com`). */
  arm: string;
  /** The token's scope (`https://management.azure.com/.default`). */
  scope: string;
  retries?: number;
  /** First wait after a throttling answer without Retry-After, doubled each time. */
  backoffMs?: number;
  /** The longest wait a Retry-After may ask for (30 s). */
  maxWaitMs?: number;
  timeoutMs?: number;
}

export const AZURE_INTERNATIONAL: AzureOptions = {
  login: 'https://login.microsoftonline.com',
  arm: 'https://management.azure.com',
  scope: 'https://management.azure.com/.default',
};
/** Azure operated by 21Vianet (the reference's `azure`). */
export const AZURE_CHINA: AzureOptions = {
  login: 'https://login.chinacloudapi.cn',
  arm: 'https://management.chinacloudapi.cn',
  scope: 'https://management.chinacloudapi.cn/.default',
};

interface Nic {
  privateIp: string;
  publicIpId: string;
}

export function createAzureProvider(name: string, o: AzureOptions): CloudProvider {
  const retries = o.retries ?? 4;
  const backoff = o.backoffMs ?? 500;
  const maxWait = o.maxWaitMs ?? 30_000;
  const timeoutMs = o.timeoutMs ?? 20_000;
  const armOrigin = new URL(o.arm).origin;
  const tokens = new WeakMap<ProviderContext, { token: string; until: number }>();

  const throttled = async (ctx: ProviderContext, status: number, headers: Headers, attempt: number) => {
    if (attempt >= retries) throw new CloudError('provider_throttled', { detail: `HTTP ${status}` });
    const after = Number(headers.get('retry-after'));
    const wait = Number.isFinite(after) && after > 0 ? after * 1000 : backoff * 2 ** attempt;
    await sleep(Math.min(wait, maxWait), ctx.signal);
  };

  async function tokenOf(ctx: ProviderContext): Promise<string> {
    const cached = tokens.get(ctx);
    if (cached && cached.until > Date.now()) return cached.token;
    const tenant = String(ctx.attrs.tenant_id ?? '');
    if (!TENANT.test(tenant)) throw new CloudError('bad_attr', { field: 'tenant_id' });
    const body = new URLSearchParams({
      client_id: String(ctx.attrs.client_id ?? ''),
      client_secret: ctx.secrets.client_secret ?? '',
      grant_type: 'client_credentials',
      scope: o.scope,
    }).toString();
    for (let attempt = 0; ; attempt++) {
      const a = await requestJson(
        `${o.login}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
        ctx.signal,
        timeoutMs,
      );
      if (a.status === 429 || a.status === 503) {
        await throttled(ctx, a.status, a.headers, attempt);
        continue;
      }
      const error = str(a.json, 'error');
      if (error) {
        const description = str(a.json, 'error_description').split(/\r?\n/)[0] ?? '';
        throw new CloudError('bad_credentials', { detail: `${error}: ${description}`.slice(0, 300) });
      }
      const token = str(a.json, 'access_token');
      if (a.status !== 200 || !token) throw new CloudError('provider_garbage', { detail: `HTTP ${a.status} token` });
      const life = Number((a.json as Record<string, unknown>).expires_in) || 300;
      tokens.set(ctx, { token, until: Date.now() + (life - 60) * 1000 });
      return token;
    }
  }

  async function arm(ctx: ProviderContext, url: string): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const token = await tokenOf(ctx);
      const a = await requestJson(url, { headers: { authorization: `Bearer ${token}` } }, ctx.signal, timeoutMs);
      if (a.status === 429 || a.status === 503) {
        await throttled(ctx, a.status, a.headers, attempt);
        continue;
      }
      if (a.status !== 200) {
        const e = obj(a.json, 'error');
        const code = str(e, 'code');
        if (!code) throw new CloudError('provider_garbage', { detail: `HTTP ${a.status}` });
        const detail = `${code}: ${str(e, 'message')}`.slice(0, 300);
        const auth = a.status === 401 || a.status === 403 || AUTH_CODES.includes(code);
        throw new CloudError(auth ? 'bad_credentials' : 'provider_unreachable', { detail });
      }
      return a.json as Record<string, unknown>;
    }
  }

  /** The `value` lists of a listing, page after page (each page handed on before the next is asked for). */
  async function* pages(ctx: ProviderContext, first: string): AsyncGenerator<unknown[]> {
    let url = first;
    for (let n = 0; url && !ctx.signal.aborted; n++) {
      if (n >= MAX_PAGES) throw new CloudError('provider_garbage', { detail: `more than ${MAX_PAGES} pages` });
      const doc = await arm(ctx, url);
      const value = arr(doc, 'value');
      if (!value) throw new CloudError('provider_garbage', { detail: 'no value list' });
      yield value;
      url = str(doc, 'nextLink');
      if (url && !url.startsWith(`${armOrigin}/`))
        throw new CloudError('provider_garbage', { detail: 'nextLink leaves Resource Manager' });
    }
  }

  const subscription = (ctx: ProviderContext) => {
    const id = String(ctx.attrs.subscription_id ?? '');
    if (!GUID.test(id)) throw new CloudError('bad_attr', { field: 'subscription_id' });
    return `${o.arm}/subscriptions/${id}`;
  };

  /** The region's interfaces (lower-cased id -> addresses). */
  async function nicsOf(ctx: ProviderContext, region: string): Promise<Map<string, Nic>> {
    const out = new Map<string, Nic>();
    const url = `${subscription(ctx)}/providers/Microsoft.Network/networkInterfaces?api-version=${API_NETWORK}`;
    for await (const page of pages(ctx, url))
      for (const nic of page) {
        if (str(nic, 'location') !== region) continue;
        const configs = (arr(obj(nic, 'properties'), 'ipConfigurations') ?? []).map((c) => obj(c, 'properties'));
        const main = configs.find((c) => c.primary === true) ?? configs[0];
        out.set(str(nic, 'id').toLowerCase(), {
          privateIp: str(main, 'privateIPAddress'),
          publicIpId: str(obj(main, 'publicIPAddress'), 'id').toLowerCase(),
        });
      }
    return out;
  }

  async function publicIpsOf(ctx: ProviderContext, region: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const url = `${subscription(ctx)}/providers/Microsoft.Network/publicIPAddresses?api-version=${API_NETWORK}`;
    for await (const page of pages(ctx, url))
      for (const ip of page)
        if (str(ip, 'location') === region)
          out.set(str(ip, 'id').toLowerCase(), str(obj(ip, 'properties'), 'ipAddress'));
    return out;
  }

  return {
    name,
    attrs: ['client_id', 'tenant_id', 'subscription_id'],
    secretAttrs: ['client_secret'],
    check(attrs) {
      if (!GUID.test(String(attrs.client_id ?? '')))
        return { field: 'client_id', key: 'bad_attr', params: { field: 'client_id' } };
      if (!TENANT.test(String(attrs.tenant_id ?? '')))
        return { field: 'tenant_id', key: 'bad_attr', params: { field: 'tenant_id' } };
      if (!GUID.test(String(attrs.subscription_id ?? '')))
        return { field: 'subscription_id', key: 'bad_attr', params: { field: 'subscription_id' } };
      return undefined;
    },
    async test(ctx) {
      await this.regions(ctx);
    },
    async regions(ctx) {
      const out: string[] = [];
      for await (const page of pages(ctx, `${subscription(ctx)}/locations?api-version=${API_LOCATIONS}`))
        for (const l of page) {
          const region = str(l, 'name');
          if (REGION.test(region) && str(obj(l, 'metadata'), 'regionType') !== 'Logical') out.push(region);
        }
      return out;
    },
    async *instances(ctx, region) {
      if (!REGION.test(region)) throw new CloudError('unknown_region', { region });
      const first = `${subscription(ctx)}/providers/Microsoft.Compute/locations/${region}/virtualMachines?api-version=${API_COMPUTE}`;
      let nics: Map<string, Nic> | undefined;
      let publicIps: Map<string, string> | undefined;
      for await (const page of pages(ctx, first))
        for (const vm of page) {
          const p = obj(vm, 'properties');
          if (str(p, 'provisioningState') === 'Deleting') continue;
          nics ??= await nicsOf(ctx, region);
          const refs = (arr(obj(p, 'networkProfile'), 'networkInterfaces') ?? []).filter(
            (r) => typeof r === 'object' && r !== null,
          );
          const ref = refs.find((r) => obj(r, 'properties').primary === true) ?? refs[0];
          const nic = nics.get(str(ref, 'id').toLowerCase());
          let address = nic?.privateIp ?? '';
          if (!address && nic?.publicIpId) {
            publicIps ??= await publicIpsOf(ctx, region);
            address = publicIps.get(nic.publicIpId) ?? '';
          }
          const osType = str(obj(obj(p, 'storageProfile'), 'osDisk'), 'osType').toLowerCase();
          const instance: CloudInstance = {
            instance_id: str(p, 'vmId') || str(vm, 'id').toLowerCase().slice(-128),
            name: str(vm, 'name'),
            address,
            region,
            os: osType === 'windows' || osType === 'linux' ? osType : '',
            tags: tagsOf((vm as Record<string, unknown>).tags),
          };
          yield instance;
        }
    },
  };
}
