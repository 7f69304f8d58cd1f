import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

/**
 * A LOCAL STAND-IN of the two Azure APIs the Azure adapter calls (Azure cannot be reached from
 * here; nothing of it ships), answering in the shapes Microsoft documents:
 * - Entra ID's client-credentials grant, `POST /<tenant>/oauth2/v2.0/token` (form body; errors as
 *   `{error, error_description}` with their AADSTS codes: 90002 unknown tenant, 700016 unknown
 *   client, 7000215 wrong secret; a scope other than Resource Manager's is `invalid_scope`);
 * - Resource Manager with `Authorization: Bearer`: `subscriptions/<id>/locations`,
 *   `providers/Microsoft.Compute/locations/<region>/virtualMachines`,
 *   `providers/Microsoft.Network/networkInterfaces` and `.../publicIPAddresses`, listings as
 *   `{value, nextLink}` pages of `pageSize`; errors as `{error: {code, message}}` (401
 *   InvalidAuthenticationToken, 404 SubscriptionNotFound, 429 TooManyRequests with `Retry-After`).
 * It can also answer garbage or not at all.
 */
export interface AzureVm {
  name: string;
  location: string;
  privateIp: string;
  publicIp?: string;
  os?: 'Linux' | 'Windows';
  tags?: Record<string, string>;
  deleting?: boolean;
  vmId?: string;
}

export interface AzureStandIn {
  url: string;
  tenant: string;
  clientId: string;
  secret: string;
  subscription: string;
  vms: AzureVm[];
  pageSize: number;
  /** The next n Resource Manager answers are 429 with `Retry-After: 1`. */
  throttle: number;
  garbage: boolean;
  silent: boolean;
  /** Paths (and skip tokens) asked for, in order. */
  requests: string[];
  tokensIssued: number;
  close(): Promise<void>;
}

const SCOPE = 'https://management.azure.com/.default';

export async function startAzureStandIn(): Promise<AzureStandIn> {
  const tokens = new Set<string>();
  const s: AzureStandIn = {
    url: '',
    tenant: randomUUID(),
    clientId: randomUUID(),
    secret: 'Qk8Q~stand-in-client-secret',
    subscription: randomUUID(),
    vms: [],
    pageSize: 100,
    throttle: 0,
    garbage: false,
    silent: false,
    requests: [],
    tokensIssued: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const sub = () => `/subscriptions/${s.subscription}`;
  const nicId = (vm: AzureVm) =>
    `${sub()}/resourceGroups/rg-${vm.location}/providers/Microsoft.Network/networkInterfaces/${vm.name}-nic`;
  const pipId = (vm: AzureVm) =>
    `${sub()}/resourceGroups/rg-${vm.location}/providers/Microsoft.Network/publicIPAddresses/${vm.name}-ip`;

  const vmJson = (vm: AzureVm) => ({
    id: `${sub()}/resourceGroups/RG-${vm.location.toUpperCase()}/providers/Microsoft.Compute/virtualMachines/${vm.name}`,
    name: vm.name,
    type: 'Microsoft.Compute/virtualMachines',
    location: vm.location,
    tags: vm.tags ?? {},
    properties: {
      vmId: vm.vmId ?? `00000000-0000-4000-8000-${Buffer.from(vm.name).toString('hex').slice(-12).padStart(12, '0')}`,
      hardwareProfile: { vmSize: 'Standard_B1s' },
      storageProfile: { osDisk: { osType: vm.os ?? 'Linux', name: `${vm.name}-disk` } },
      networkProfile: { networkInterfaces: [{ id: nicId(vm), properties: { primary: true } }] },
      provisioningState: vm.deleting ? 'Deleting' : 'Succeeded',
    },
  });
  const nicJson = (vm: AzureVm) => ({
    id: nicId(vm),
    name: `${vm.name}-nic`,
    location: vm.location,
    properties: {
      ipConfigurations: [
        {
          name: 'ipconfig1',
          properties: {
            primary: true,
            privateIPAddress: vm.privateIp,
            privateIPAllocationMethod: 'Dynamic',
            ...(vm.publicIp ? { publicIPAddress: { id: pipId(vm) } } : {}),
          },
        },
      ],
    },
  });

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (s.silent) return;
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
          .end(JSON.stringify(json));
      if (s.garbage) return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Gateway says hello');
      const url = new URL(req.url!, s.url);
      s.requests.push(
        url.pathname + (url.searchParams.get('$skiptoken') ? `#${url.searchParams.get('$skiptoken')}` : ''),
      );

      const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
      if (token && req.method === 'POST') {
        const form = new URLSearchParams(body);
        const aad = (status: number, error: string, description: string) =>
          send(status, { error, error_description: description, error_codes: [Number(/\d+/.exec(description)?.[0])] });
        if (token[1] !== s.tenant)
          return aad(400, 'invalid_request', `AADSTS90002: Tenant '${token[1]}' not found.\r\nTrace ID: 1`);
        if (form.get('grant_type') !== 'client_credentials') return aad(400, 'unsupported_grant_type', 'AADSTS70003');
        if (form.get('scope') !== SCOPE)
          return aad(400, 'invalid_scope', 'AADSTS70011: The provided value for scope is not valid.');
        if (form.get('client_id') !== s.clientId)
          return aad(
            400,
            'unauthorized_client',
            `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found in the directory.`,
          );
        if (form.get('client_secret') !== s.secret)
          return aad(401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided.\r\nTrace ID: 2');
        const t = randomUUID();
        tokens.add(t);
        s.tokensIssued += 1;
        return send(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: t });
      }

      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !tokens.has(bearer))
        return send(401, { error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' } });
      if (s.throttle > 0) {
        s.throttle -= 1;
        return send(429, { error: { code: 'TooManyRequests', message: 'Too many requests.' } }, { 'retry-after': '1' });
      }
      if (!url.pathname.startsWith(`${sub()}/`))
        return send(404, {
          error: {
            code: 'SubscriptionNotFound',
            message: `The subscription '${url.pathname.split('/')[2]}' could not be found.`,
          },
        });
      const rest = url.pathname.slice(sub().length);
      const page = (all: unknown[]) => {
        const start = Number(url.searchParams.get('$skiptoken') ?? 0);
        const next = new URL(url);
        next.searchParams.set('$skiptoken', String(start + s.pageSize));
        send(200, {
          value: all.slice(start, start + s.pageSize),
          ...(start + s.pageSize < all.length ? { nextLink: next.toString() } : {}),
        });
      };
      if (rest === '/locations')
        return send(200, {
          value: [
            { name: 'eastus', displayName: 'East US', metadata: { regionType: 'Physical' } },
            { name: 'westeurope', displayName: 'West Europe', metadata: { regionType: 'Physical' } },
            { name: 'eastusstg', displayName: 'East US (Stage)', metadata: { regionType: 'Logical' } },
          ].map((l) => ({ id: `${sub()}/locations/${l.name}`, ...l })),
        });
      const vms = /^\/providers\/Microsoft\.Compute\/locations\/([^/]+)\/virtualMachines$/.exec(rest);
      if (vms) return page(s.vms.filter((v) => v.location === vms[1]).map(vmJson));
      if (rest === '/providers/Microsoft.Network/networkInterfaces') return page(s.vms.map(nicJson));
      if (rest === '/providers/Microsoft.Network/publicIPAddresses')
        return page(
          s.vms
            .filter((v) => v.publicIp)
            .map((v) => ({
              id: pipId(v),
              name: `${v.name}-ip`,
              location: v.location,
              properties: { ipAddress: v.publicIp },
            })),
        );
      send(404, { error: { code: 'ResourceNotFound', message: rest } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}
