import { randomUUID } from 'node:crypto';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { expect } from 'vitest';
import type { SessionClient } from './testApp.ts';

/** Helpers of the asset permission API tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
export type Row = Record<string, any>;
export const P = '/api/v1/perms';
export const PERMS = `${P}/asset-permissions/`;
export const PASSWORD = 'Perm-pass-1';

export async function makeUser(admin: SessionClient, username: string, org = DEFAULT_ORG_ID): Promise<Row> {
  const res = await admin.post(
    '/api/v1/users/users/',
    { name: username, username, email: `${username}@corp.example`, password_strategy: 'custom', password: PASSWORD },
    { 'x-jms-org': org },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A node at `path` (below the org root), created with its missing ancestors. */
export async function makeNode(admin: SessionClient, path: string, org = DEFAULT_ORG_ID): Promise<Row> {
  const res = await admin.post('/api/v1/assets/nodes/', { full_value: path }, { 'x-jms-org': org });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function makeAsset(
  admin: SessionClient,
  nodes: string[],
  org = DEFAULT_ORG_ID,
  name?: string,
): Promise<Row> {
  const res = await admin.post(
    '/api/v1/assets/hosts/',
    {
      name: name ?? `h-${randomUUID().slice(0, 8)}`,
      address: '10.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: 22 }],
      nodes,
    },
    { 'x-jms-org': org },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function makeAccount(
  admin: SessionClient,
  asset: string,
  username: string,
  org = DEFAULT_ORG_ID,
): Promise<Row> {
  const res = await admin.post(
    '/api/v1/accounts/accounts/',
    { asset, username, name: username, secret_type: 'password', secret: 'Secret-1x' },
    { 'x-jms-org': org },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function makePerm(admin: SessionClient, body: Row, org = DEFAULT_ORG_ID): Promise<Row> {
  const res = await admin.post(PERMS, { name: `p-${randomUUID().slice(0, 8)}`, ...body }, { 'x-jms-org': org });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
