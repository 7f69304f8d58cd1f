import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { SessionClient, type TestApp } from './testApp.ts';
import { PASSWORD, type Row } from './perms.ts';

/** Helpers of the ticket API tests. */
export const T = '/api/v1/tickets';

export async function signIn(t: TestApp, username: string): Promise<SessionClient> {
  const c = new SessionClient(t.app);
  const res = await c.login(username, PASSWORD);
  expect(res.statusCode, res.body).toBe(200);
  return c;
}

export async function bindOrgAdmin(t: TestApp, userId: string, orgId: string): Promise<void> {
  await t.deps.database.db
    .insertInto('rbac_rolebinding')
    .values({
      id: randomUUID(),
      user_id: userId,
      role_id: BUILTIN_ROLE_IDS.OrgAdmin,
      scope: 'org',
      org_id: orgId,
      created_by: 'test',
      date_created: new Date().toISOString(),
    })
    .execute();
}

export const put = (c: SessionClient, url: string, payload: unknown = {}, headers: Record<string, string> = {}) =>
  c.request({ method: 'PUT', url, payload: payload as Row, headers });

/** Opens an asset request as `c` and answers the ticket. */
export async function requestAssets(c: SessionClient, body: Row, org?: string): Promise<Row> {
  const res = await c.post(
    `${T}/apply-asset-tickets/open/`,
    { title: 'Need access', ...body },
    org ? { 'x-jms-org': org } : {},
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
