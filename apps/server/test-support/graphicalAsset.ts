import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SessionClient, type TestApp } from './testApp.ts';
import { makePerm, makeUser, PASSWORD, type Row } from './perms.ts';
import { GRAPHICAL_SOCKET_PATH } from '../src/modules/terminal/graphical/graphicalSocket.ts';
import { rfbClient } from './rfbClient.ts';

/** Test helpers: a Linux host with a VNC protocol and its password account, users granted it, their graphical sockets. */
export async function vncHost(admin: SessionClient, port: number, secret: string, extra: Row = {}) {
  const res = await admin.post('/api/v1/assets/hosts/', {
    name: `vnc-${randomUUID().slice(0, 6)}`,
    address: '127.0.0.1',
    platform: 'Linux',
    protocols: [
      { name: 'ssh', port: 22 },
      { name: 'vnc', port },
    ],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  const host = res.json() as Row;
  const acc = await admin.post('/api/v1/accounts/accounts/', { asset: host.id, username: 'desktop', secret });
  expect(acc.statusCode, acc.body).toBe(201);
  return { host, account: acc.json() as Row };
}

/** A Windows host with an RDP protocol and its password account. */
export async function rdpHost(admin: SessionClient, port: number, username: string, secret: string) {
  const res = await admin.post('/api/v1/assets/hosts/', {
    name: `rdp-${randomUUID().slice(0, 6)}`,
    address: '127.0.0.1',
    platform: 'Windows',
    protocols: [{ name: 'rdp', port }],
  });
  expect(res.statusCode, res.body).toBe(201);
  const host = res.json() as Row;
  const acc = await admin.post('/api/v1/accounts/accounts/', { asset: host.id, username, secret });
  expect(acc.statusCode, acc.body).toBe(201);
  return { host, account: acc.json() as Row };
}

let n = 0;

/** A signed-in user granted `actions` (default connect only) on the asset's accounts. */
export async function graphicalUser(
  t: TestApp,
  admin: SessionClient,
  assetId: string,
  actions: string[] = ['connect'],
) {
  const u = await makeUser(admin, `gui-user-${++n}-${randomUUID().slice(0, 4)}`);
  const client = new SessionClient(t.app);
  const res = await client.login(u.username, PASSWORD);
  expect(res.statusCode, res.body).toBe(200);
  await makePerm(admin, { users: [u.id], assets: [assetId], accounts: ['@ALL'], actions });
  return { id: u.id as string, username: u.username as string, client };
}

/** A `web_gui` connection token of the protocol for the account (by name). */
export async function graphicalToken(
  c: SessionClient,
  assetId: string,
  account: string,
  protocol = 'vnc',
  extra: Row = {},
) {
  const res = await c.post('/api/v1/authentication/connection-token/', {
    asset: assetId,
    account,
    protocol,
    connect_method: 'web_gui',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as Row).id as string;
}

/** The browser's graphical socket on the app at `base` with the token. */
export function graphicalClient(base: string, token: string, encodings?: number[]) {
  return rfbClient(
    `${base}${GRAPHICAL_SOCKET_PATH}?token=${token}&width=800&height=600`,
    encodings ? { encodings } : {},
  );
}
