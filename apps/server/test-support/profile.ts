import { createHmac, randomUUID } from 'node:crypto';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID } from '@gatehouse/contract';
import { SessionClient, type TestApp } from './testApp.ts';
import { createUser, USER_PASSWORD } from './auth.ts';
import {
  insertConnectionToken,
  type NewConnectionToken,
} from '../src/modules/authentication/profile/connectionTokens.ts';

/** Helpers for the profile tests: users with the builtin User role, re-verification, a signer. */

/** A local user holding the system role User (what every console user has), signed in. */
export async function signedInUser(t: TestApp, username: string): Promise<{ id: string; client: SessionClient }> {
  const id = await createUser(t, username);
  await t.deps.database.db
    .insertInto('rbac_rolebinding')
    .values({
      id: randomUUID(),
      user_id: id,
      role_id: BUILTIN_ROLE_IDS.User,
      scope: 'system',
      org_id: null,
      created_by: 'test',
      date_created: new Date().toISOString(),
    })
    .execute();
  const client = new SessionClient(t.app);
  const res = await client.login(username, USER_PASSWORD);
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.body}`);
  return { id, client };
}

/** Re-verifies the signed-in client with its password (what the console's dialog does). */
export async function confirmPassword(c: SessionClient, password = USER_PASSWORD): Promise<void> {
  const res = await c.post('/api/v1/authentication/confirm/', { confirm_type: 'password', secret_key: password });
  if (res.statusCode !== 200) throw new Error(`confirm failed: ${res.body}`);
}

/**
 * A minimal draft-cavage signer (what an API client script does): signs the listed headers of a
 * request with HMAC-SHA256 and returns the headers to send.
 */
export function signedHeaders(
  keyId: string,
  secret: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  names = ['(request-target)', 'accept', 'date'],
): Record<string, string> {
  const lines = names.map((n) =>
    n === '(request-target)' ? `${n}: ${method.toLowerCase()} ${path}` : `${n}: ${headers[n]}`,
  );
  const signature = createHmac('sha256', secret).update(lines.join('\n')).digest('base64');
  return {
    ...headers,
    authorization: `Signature keyId="${keyId}",algorithm="hmac-sha256",headers="${names.join(' ')}",signature="${signature}"`,
  };
}

/** Inserts a connection token of the user, as the gateway will (defaults: ssh, one-time, 300 s, the default org). */
export async function insertTestConnectionToken(
  t: TestApp,
  userId: string,
  extra: Partial<NewConnectionToken> = {},
): Promise<{ id: string; value: string }> {
  return insertConnectionToken(t.deps, t.deps.database.db, {
    userId,
    userDisplay: extra.userDisplay ?? userId,
    orgId: DEFAULT_ORG_ID,
    assetDisplay: 'web-01(10.0.0.1)',
    account: 'root',
    ttlSeconds: 300,
    ...extra,
  });
}
