import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { ACCOUNTS } from '../../../../test-support/accounts.ts';
import { PERMS, type Row } from '../../../../test-support/perms.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { startFakeK8s, type FakeK8s } from '../../../../test-support/k8sApi.ts';
import { k8sAsset, k8sToken, k8sUser } from '../../../../test-support/k8sAsset.ts';
import { K8S_TREE_PATH } from './k8sTreeRoutes.ts';

/**
 * The Kubernetes tree of the web terminal (`perms/users/self/nodes/children-with-k8s/tree/`)
 * against a fake API server (test-support/k8sApi.ts: no real cluster can run here; it answers the real
 * REST paths over HTTPS with a self-signed certificate), directly and through a domain gateway (a
 * real OpenSSH on loopback, test-support/sshd.ts).
 */
let t: TestApp;
let admin: SessionClient;
let fake: FakeK8s;
let sshd: SshdWithUsers;
let asset: Row;
let good: Row;
let wrong: Row;

const CLUSTER = {
  default: { 'web-1': ['nginx', 'sidecar'], 'web-2': ['nginx'] },
  'kube-system': { 'dns-0': ['coredns'] },
};

beforeAll(async () => {
  fake = await startFakeK8s(CLUSTER);
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  const made = await k8sAsset(admin, fake.url, [
    { username: 'viewer', secret: fake.token },
    { username: 'stale', secret: 'revoked-token' },
  ]);
  asset = made.asset;
  [good, wrong] = made.accounts as [Row, Row];
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await fake?.stop();
  await t?.close();
});

const tree = (c: SessionClient, token: string, key?: string, headers: Record<string, string> = {}) =>
  c.get(`${K8S_TREE_PATH}?token=${token}${key === undefined ? '' : `&key=${encodeURIComponent(key)}`}`, headers);

describe('the Kubernetes tree', () => {
  it('answers the asset, its namespaces, their pods and the pods’ containers, with the account’s token', async () => {
    const u = await k8sUser(t, admin, asset.id);
    const token = await k8sToken(u.client, asset.id, good.name);
    const root = await tree(u.client, token);
    expect(root.statusCode, root.body).toBe(200);
    expect(root.json()).toEqual([
      expect.objectContaining({
        id: `asset_id=${asset.id}`,
        name: asset.name,
        pId: '',
        isParent: true,
        meta: expect.objectContaining({ type: 'k8s', data: expect.objectContaining({ identity: 'asset' }) }),
      }),
    ]);
    const namespaces = (await tree(u.client, token, `asset_id=${asset.id}`)).json() as Row[];
    expect(namespaces.map((n) => [n.id, n.name, n.pId, n.isParent])).toEqual([
      ['namespace=default', 'default', `asset_id=${asset.id}`, true],
      ['namespace=kube-system', 'kube-system', `asset_id=${asset.id}`, true],
    ]);
    const pods = (await tree(u.client, token, 'namespace=default')).json() as Row[];
    expect(pods.map((n) => [n.id, n.name, n.pId])).toEqual([
      ['namespace=default&pod=web-1', 'web-1', 'namespace=default'],
      ['namespace=default&pod=web-2', 'web-2', 'namespace=default'],
    ]);
    const containers = (await tree(u.client, token, 'namespace=default&pod=web-1')).json() as Row[];
    expect(containers).toEqual([
      expect.objectContaining({
        id: 'namespace=default&pod=web-1&container=nginx',
        name: 'nginx',
        pId: 'namespace=default&pod=web-1',
        isParent: false,
        meta: {
          type: 'k8s',
          data: expect.objectContaining({
            identity: 'container',
            is_container: true,
            namespace: 'default',
            pod: 'web-1',
            container: 'nginx',
          }),
        },
      }),
      expect.objectContaining({ name: 'sidecar' }),
    ]);
    // The cluster saw the account's token on the real paths; the token is still live (not spent).
    expect(fake.requests.slice(-3)).toEqual([
      { method: 'GET', path: '/api/v1/namespaces', authorized: true },
      { method: 'GET', path: '/api/v1/namespaces/default/pods', authorized: true },
      { method: 'GET', path: '/api/v1/namespaces/default/pods/web-1', authorized: true },
    ]);
    // Browsing renews it: its end moves to a one-time lifetime from now.
    const db = t.deps.database.db;
    const soon = new Date(Date.now() + 2000).toISOString();
    await db
      .updateTable('authentication_connectiontoken')
      .set({ date_expired: soon })
      .where('id', '=', token)
      .execute();
    expect((await tree(u.client, token)).statusCode).toBe(200);
    const renewed = await db
      .selectFrom('authentication_connectiontoken')
      .select('date_expired')
      .where('id', '=', token)
      .executeTakeFirstOrThrow();
    expect(Date.parse(renewed.date_expired) - Date.now()).toBeGreaterThan(200_000);
  });

  it('refuses a missing, unknown, foreign, expired or revoked token and a bad key', async () => {
    const u = await k8sUser(t, admin, asset.id);
    const other = await k8sUser(t, admin, asset.id);
    const token = await k8sToken(u.client, asset.id, good.name);
    const missing = await u.client.get(K8S_TREE_PATH);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toBe('A connection token is required (token).');
    expect((await tree(u.client, 'not-a-uuid')).statusCode).toBe(403);
    expect((await tree(u.client, crypto.randomUUID())).statusCode).toBe(403);
    const foreign = await tree(other.client, token);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().detail).toBe(
      'The connection token is not yours, has expired or is not for a Kubernetes asset.',
    );
    for (const key of ['namespace=Bad_Name', 'namespace=default&pod=../x', `asset_id=${crypto.randomUUID()}`, 'x=1'])
      expect((await tree(u.client, token, key)).statusCode, key).toBe(400);
    // The permission is gone: the token no longer opens the tree.
    expect((await admin.request({ method: 'DELETE', url: `${PERMS}${u.perm.id}/` })).statusCode).toBe(204);
    const revoked = await tree(u.client, token, `asset_id=${asset.id}`);
    expect(revoked.statusCode).toBe(400);
    expect(revoked.json().code).toBe('perm_account_invalid');
    // Expired.
    const token2 = await k8sToken(other.client, asset.id, good.name);
    await t.deps.database.db
      .updateTable('authentication_connectiontoken')
      .set({ date_expired: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', token2)
      .execute();
    expect((await tree(other.client, token2)).statusCode).toBe(403);
    // The cluster offers no SSH: no token for it; and a token of an SSH asset is not one for this tree.
    const ssh = await other.client.post('/api/v1/authentication/connection-token/', {
      asset: asset.id,
      account: good.name,
      protocol: 'ssh',
      connect_method: 'web_cli',
    });
    expect(ssh.json()).toMatchObject({ code: 'protocol_not_supported' });
    await t.deps.database.db
      .updateTable('authentication_connectiontoken')
      .set({ protocol: 'ssh', date_expired: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', token2)
      .execute();
    expect((await tree(other.client, token2)).statusCode).toBe(403);
  });

  it('turns the cluster’s 401 and an unreachable cluster into a clear 400 in the user’s language', async () => {
    const u = await k8sUser(t, admin, asset.id);
    const stale = await k8sToken(u.client, asset.id, wrong.name);
    const refused = await tree(u.client, stale, `asset_id=${asset.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      detail: `The Kubernetes API server 127.0.0.1:${fake.port} refused the account's token (HTTP 401): Unauthorized`,
      code: 'k8s_unauthorized',
    });
    expect(fake.requests.at(-1)).toMatchObject({ authorized: false });
    const zh = await tree(u.client, stale, `asset_id=${asset.id}`, { 'accept-language': 'zh' });
    expect(zh.json().detail).toContain('拒绝了该账号的令牌');

    const closed = await k8sAsset(admin, 'https://127.0.0.1:1', [{ username: 'viewer', secret: fake.token }]);
    const v = await k8sUser(t, admin, closed.asset.id);
    const token = await k8sToken(v.client, closed.asset.id, 'viewer');
    const down = await tree(v.client, token, `asset_id=${closed.asset.id}`);
    expect(down.statusCode).toBe(400);
    expect(down.json().detail).toMatch(/^Could not connect to 127\.0\.0\.1:1: .*ECONNREFUSED/);
  });

  it('reaches the cluster through the asset’s domain gateway', async () => {
    const domain = (await admin.post('/api/v1/assets/domains/', { name: 'k8s-dmz' })).json() as Row;
    const gw = await admin.post('/api/v1/assets/gateways/', {
      name: 'k8s-jump',
      address: '127.0.0.1',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: sshd.port }],
    });
    expect(gw.statusCode, gw.body).toBe(201);
    const gwAccount = await admin.post(ACCOUNTS, {
      asset: gw.json().id,
      username: sshd.username,
      secret: sshd.password,
    });
    expect(gwAccount.statusCode, gwAccount.body).toBe(201);
    const inner = await k8sAsset(admin, fake.url, [{ username: 'viewer', secret: fake.token }], { domain: domain.id });
    const u = await k8sUser(t, admin, inner.asset.id);
    const token = await k8sToken(u.client, inner.asset.id, 'viewer');
    const namespaces = await tree(u.client, token, `asset_id=${inner.asset.id}`);
    expect(namespaces.statusCode, namespaces.body).toBe(200);
    expect((namespaces.json() as Row[]).map((n) => n.name)).toEqual(['default', 'kube-system']);
    // The gateway's SSH host key was met on the way (the tunnel is its forwardOut).
    const keys = await t.deps.database.db.selectFrom('terminal_hostkey').selectAll().execute();
    expect(keys.find((k) => k.asset_id === gw.json().id)).toMatchObject({ fingerprint: sshd.hostKeyFingerprint });
    sshd.stop();
    const down = await tree(u.client, token, `asset_id=${inner.asset.id}`);
    expect(down.statusCode).toBe(400);
    expect(down.json().detail).toContain(`Could not connect to 127.0.0.1:${sshd.port}`);
  }, 30_000);
});
