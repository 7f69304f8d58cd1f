import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makePerm, makeUser, PASSWORD, type Row } from '../../../../test-support/perms.ts';
import { hostWithAccounts } from '../../../../test-support/gateway.ts';
import { DEFAULT_ENDPOINT_ID } from '../../../platform/db/migrations/m1250_terminal_storages.ts';

/**
 * Endpoints and endpoint rules: the rules (active, by priority) choose by the client's address
 * which endpoint `endpoints/smart/` answers and which host and port a connection token's
 * `client-url` hands the native client; the Default endpoint's SSH port is this instance's
 * native SSH server's. No sshd is needed: a token is made, not spent.
 */
let t: TestApp;
let admin: SessionClient;
let user: SessionClient;
let token: Row;
const EP = '/api/v1/terminal/endpoints/';
const RULES = '/api/v1/terminal/endpoint-rules/';
const CT = '/api/v1/authentication/connection-token/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  const target = await hostWithAccounts(admin, { port: 22, username: 'u', password: 'p', privateKey: '' });
  const u = await makeUser(admin, 'endpoint-user');
  await makePerm(admin, { users: [u.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'] });
  user = new SessionClient(t.app);
  expect((await user.login('endpoint-user', PASSWORD)).statusCode).toBe(200);
  const res = await user.post(CT, {
    asset: target.host.id,
    account: target.password.name,
    protocol: 'ssh',
    connect_method: 'ssh_client',
  });
  expect(res.statusCode, res.body).toBe(201);
  token = res.json();
}, 60_000);
afterAll(async () => t?.close());

/** What the native client is told, asked from `ip`. */
async function clientUrlFrom(ip: string): Promise<{ host: string; port: number }> {
  const res = await user.request({ method: 'GET', url: `${CT}${token.id}/client-url/`, remoteAddress: ip });
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(Buffer.from(String(res.json().url).replace('jms://', ''), 'base64').toString()).endpoint;
}

const smartFrom = async (ip: string) =>
  (
    await user.request({ method: 'GET', url: '/api/v1/terminal/endpoints/smart/?protocol=ssh', remoteAddress: ip })
  ).json();

describe('endpoints and endpoint rules', () => {
  it('answers the Default endpoint with this instance’s SSH port, and keeps it', async () => {
    const list = (await admin.get(EP)).json() as Row[];
    expect(list).toEqual([
      expect.objectContaining({ id: DEFAULT_ENDPOINT_ID, name: 'Default', host: '', ssh_port: t.deps.config.sshPort }),
    ]);
    expect((await admin.patch(`${EP}${DEFAULT_ENDPOINT_ID}/`, { ssh_port: 1 })).statusCode).toBe(200);
    expect((await admin.get(`${EP}${DEFAULT_ENDPOINT_ID}/`)).json().ssh_port).toBe(t.deps.config.sshPort);
    expect((await admin.request({ method: 'DELETE', url: `${EP}${DEFAULT_ENDPOINT_ID}/` })).statusCode).toBe(400);
    expect(await clientUrlFrom('192.0.2.7')).toEqual({ host: 'localhost', port: t.deps.config.sshPort });
  });

  it('refuses hosts with a scheme, path or spaces, ports out of range and bad IP groups', async () => {
    for (const host of ['http://gw', 'gw/x', 'gw x', 'gw;id', '-oProxyCommand=x']) {
      const res = await admin.post(EP, { name: `bad-${host}`, host });
      expect(res.statusCode, host).toBe(400);
      expect(res.json().host[0]).toMatch(/host name or an IP/);
    }
    expect((await admin.post(EP, { name: 'bad-port', ssh_port: 70000 })).json().ssh_port).toBeDefined();
    const zh = await admin.post(
      RULES,
      { name: 'bad', ip_group: ['10.0.0.0/33'], endpoint: DEFAULT_ENDPOINT_ID },
      {
        'accept-language': 'zh-CN',
      },
    );
    expect(zh.json().ip_group[0]).toContain('10.0.0.0/33');
    expect((await admin.post(RULES, { name: 'bad', ip_group: [], endpoint: DEFAULT_ENDPOINT_ID })).statusCode).toBe(
      400,
    );
    expect((await admin.post(RULES, { name: 'bad', priority: 0, endpoint: DEFAULT_ENDPOINT_ID })).statusCode).toBe(400);
  });

  it('lets the rules choose the endpoint a client is told to use, by address and priority', async () => {
    const office = (await admin.post(EP, { name: 'office', host: 'gw.office.example', ssh_port: 2022 })).json();
    const branch = (await admin.post(EP, { name: 'branch', host: '10.9.0.1', ssh_port: 2122 })).json();
    const wide = await admin.post(RULES, { name: 'vpn', ip_group: ['10.8.0.0/16'], priority: 20, endpoint: office.id });
    expect(wide.statusCode, wide.body).toBe(201);
    expect(wide.json()).toMatchObject({
      ip_group: ['10.8.0.0/16'],
      priority: 20,
      is_active: true,
      endpoint: { id: office.id },
    });

    expect(await clientUrlFrom('10.8.2.2')).toEqual({ host: 'gw.office.example', port: 2022 });
    expect(await clientUrlFrom('127.0.0.1')).toEqual({ host: 'localhost', port: t.deps.config.sshPort });
    expect(await smartFrom('10.8.2.2')).toMatchObject({ id: office.id, host: 'gw.office.example', ssh_port: 2022 });
    expect(await smartFrom('127.0.0.1')).toMatchObject({ id: DEFAULT_ENDPOINT_ID, host: '' });

    // A narrower rule of higher priority (a lower number) wins for its addresses only.
    const narrow = (
      await admin.post(RULES, {
        name: 'branch-lan',
        ip_group: ['10.8.1.1-10.8.1.50'],
        priority: 5,
        endpoint: branch.id,
      })
    ).json();
    expect(await clientUrlFrom('10.8.1.2')).toEqual({ host: '10.9.0.1', port: 2122 });
    expect(await clientUrlFrom('10.8.1.99')).toEqual({ host: 'gw.office.example', port: 2022 });
    // Inactive, it no longer chooses.
    expect((await admin.patch(`${RULES}${narrow.id}/`, { is_active: false })).statusCode).toBe(200);
    expect(await clientUrlFrom('10.8.1.2')).toEqual({ host: 'gw.office.example', port: 2022 });

    // An endpoint a rule names stays until the rule is changed.
    const refused = await admin.request({ method: 'DELETE', url: `${EP}${office.id}/` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/vpn/);
    expect((await admin.request({ method: 'DELETE', url: `${RULES}${wide.json().id}/` })).statusCode).toBe(204);
    expect((await admin.request({ method: 'DELETE', url: `${EP}${office.id}/` })).statusCode).toBe(204);
    expect(await clientUrlFrom('10.8.2.2')).toEqual({ host: 'localhost', port: t.deps.config.sshPort });
  });

  it('is managed by administrators only', async () => {
    expect((await user.get(EP)).statusCode).toBe(403);
    expect((await user.post(RULES, { name: 'x', endpoint: DEFAULT_ENDPOINT_ID })).statusCode).toBe(403);
  });
});
