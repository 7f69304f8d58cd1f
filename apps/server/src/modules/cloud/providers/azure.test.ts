import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAzureStandIn, type AzureStandIn } from '../../../../test-support/azureStandIn.ts';
import { AZURE_INTERNATIONAL, createAzureProvider } from './azure.ts';
import { CloudError, type CloudProvider, type ProviderContext } from './provider.ts';
import type { CloudInstance } from '../strategy.ts';

/**
 * The Azure adapter against a LOCAL STAND-IN of Entra ID's token endpoint and Resource Manager
 * (test-support/azureStandIn.ts, answering in Microsoft's documented shapes; Azure cannot be
 * reached from here and nothing of the stand-in ships).
 */
let az: AzureStandIn;
let provider: CloudProvider;

beforeAll(async () => {
  az = await startAzureStandIn();
  provider = createAzureProvider('azure_international', {
    ...AZURE_INTERNATIONAL,
    login: az.url,
    arm: az.url,
    backoffMs: 5,
    maxWaitMs: 5,
    timeoutMs: 500,
  });
});
afterAll(() => az?.close());
beforeEach(() => Object.assign(az, { throttle: 0, garbage: false, silent: false, requests: [], pageSize: 100 }));

const ctx = (over: Record<string, string> = {}, secret = az.secret): ProviderContext => ({
  attrs: { client_id: az.clientId, tenant_id: az.tenant, subscription_id: az.subscription, ...over },
  secrets: { client_secret: secret },
  signal: new AbortController().signal,
});

async function all(region = 'westeurope', c = ctx()): Promise<CloudInstance[]> {
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

describe('Azure adapter against a local stand-in of Entra ID and Resource Manager', () => {
  it('checks the attributes at save: GUIDs, and a tenant id or domain', () => {
    const good = { client_id: az.clientId, tenant_id: 'contoso.onmicrosoft.com', subscription_id: az.subscription };
    expect(provider.check(good, {})).toBeUndefined();
    expect(provider.check({ ...good, tenant_id: '../evil' }, {})).toMatchObject({
      field: 'tenant_id',
      key: 'bad_attr',
    });
    expect(provider.check({ ...good, subscription_id: 'x' }, {})).toMatchObject({ field: 'subscription_id' });
  });

  it('lists the physical regions with one token', async () => {
    const before = az.tokensIssued;
    expect(await provider.regions(ctx())).toEqual(['eastus', 'westeurope']);
    expect(az.tokensIssued).toBe(before + 1);
  });

  it('reads a region’s VMs page by page with their addresses, leaving out one being deleted', async () => {
    az.vms = Array.from({ length: 250 }, (_v, i) => ({
      name: `vm-${i}`,
      location: i % 5 === 4 ? 'eastus' : 'westeurope',
      privateIp: i === 1 ? '' : `10.1.${i >> 8}.${i & 255}`,
      publicIp: i === 1 ? '20.30.40.50' : undefined,
      os: i === 2 ? 'Windows' : 'Linux',
      tags: i === 0 ? { env: 'prod' } : undefined,
      deleting: i === 3,
    }));
    const c = ctx();
    const list = await all('westeurope', c);
    // 200 in West Europe, one of them being deleted; pages of 100.
    expect(list).toHaveLength(199);
    const vmPages = az.requests.filter((r) => r.includes('virtualMachines'));
    expect(vmPages).toHaveLength(2);
    expect(list[0]).toEqual({
      instance_id: expect.stringMatching(/^00000000-0000-4000-8000-/),
      name: 'vm-0',
      address: '10.1.0.0',
      region: 'westeurope',
      os: 'linux',
      tags: { env: 'prod' },
    });
    expect(list[1]).toMatchObject({ name: 'vm-1', address: '20.30.40.50' });
    expect(list[2]).toMatchObject({ name: 'vm-2', os: 'windows' });
    expect(list.map((i) => i.name)).not.toContain('vm-3');
    // Interfaces and public IPs are listed once for the region, not per VM.
    expect(az.requests.filter((r) => r.endsWith('/networkInterfaces')).length).toBe(1);
    expect(az.requests.filter((r) => r.endsWith('/publicIPAddresses')).length).toBe(1);
    expect(await all('eastus', c)).toHaveLength(50);
  });

  it('waits out 429 answers, and says so when they do not stop', async () => {
    az.vms = [{ name: 'one', location: 'westeurope', privateIp: '10.0.0.1' }];
    az.throttle = 3;
    expect(await all()).toHaveLength(1);
    az.throttle = 100;
    expect((await failure(all())).key).toBe('provider_throttled');
  });

  it('tells wrong credentials apart on test: tenant, client, secret and subscription', async () => {
    const tenant = await failure(provider.test(ctx({ tenant_id: 'fabrikam.onmicrosoft.com' })));
    expect(tenant).toMatchObject({ key: 'bad_credentials', params: { detail: expect.stringMatching(/AADSTS90002/) } });
    const client = await failure(provider.test(ctx({ client_id: '11111111-2222-4333-8444-555555555555' })));
    expect(client.params.detail).toMatch(/^unauthorized_client: AADSTS700016/);
    const secret = await failure(provider.test(ctx({}, 'wrong')));
    expect(secret.params.detail).toBe('invalid_client: AADSTS7000215: Invalid client secret provided.');
    const sub = await failure(provider.test(ctx({ subscription_id: '11111111-2222-4333-8444-555555555555' })));
    expect(sub).toMatchObject({
      key: 'bad_credentials',
      params: { detail: expect.stringMatching(/^SubscriptionNotFound/) },
    });
  });

  it('reports garbage, a silent provider and an unknown region', async () => {
    az.garbage = true;
    expect((await failure(all())).key).toBe('provider_garbage');
    az.garbage = false;
    az.silent = true;
    expect(await failure(all())).toMatchObject({ key: 'provider_unreachable', params: { detail: 'timed out' } });
    az.silent = false;
    expect((await failure(all('West Europe/../x'))).key).toBe('unknown_region');
  });
});
