import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SessionClient, type TestApp } from './testApp.ts';
import { ACCOUNTS } from './accounts.ts';
import { makePerm, makeUser, PASSWORD, type Row } from './perms.ts';

/** Test helpers: a Kubernetes asset (Kubernetes platform) with token accounts, users granted it, their tokens. */
export const CT = '/api/v1/authentication/connection-token/';

export async function k8sAsset(
  admin: SessionClient,
  address: string,
  accounts: { username: string; secret: string }[],
  extra: Row = {},
): Promise<{ asset: Row; accounts: Row[] }> {
  const res = await admin.post('/api/v1/assets/clouds/', {
    name: `k8s-${randomUUID().slice(0, 6)}`,
    address,
    platform: 'Kubernetes',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  const asset = res.json() as Row;
  const made: Row[] = [];
  for (const a of accounts) {
    const r = await admin.post(ACCOUNTS, { asset: asset.id, secret_type: 'token', ...a });
    expect(r.statusCode, r.body).toBe(201);
    made.push(r.json() as Row);
  }
  return { asset, accounts: made };
}

let n = 0;

/** A signed-in user granted `connect` on the asset's accounts. */
export async function k8sUser(t: TestApp, admin: SessionClient, assetId: string) {
  const u = await makeUser(admin, `k8s-user-${++n}-${randomUUID().slice(0, 4)}`);
  const client = new SessionClient(t.app);
  const res = await client.login(u.username, PASSWORD);
  expect(res.statusCode, res.body).toBe(200);
  const perm = await makePerm(admin, { users: [u.id], assets: [assetId], accounts: ['@ALL'], actions: ['connect'] });
  return { id: u.id as string, client, perm };
}

/** A web terminal connection token of the k8s protocol for the account (by name). */
export async function k8sToken(c: SessionClient, assetId: string, account: string): Promise<string> {
  const res = await c.post(CT, { asset: assetId, account, protocol: 'k8s', connect_method: 'web_cli' });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as Row).id as string;
}
