import { randomUUID } from 'node:crypto';
import { BUILTIN_ROLE_IDS, type BuiltinRoleDef } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from './testApp.ts';

/**
 * The world of the authorisation matrices (`src/http/authorizationMatrix.test.ts`,
 * `src/http/orgScopeMatrix.test.ts`): an app with two organisations A and B, the admin, and users
 * made with exactly the role bindings a case needs, signed in.
 */
export const MATRIX_PASSWORD = 'Matrix-pass1';

export interface MatrixWorld {
  t: TestApp;
  admin: SessionClient;
  orgA: string;
  orgB: string;
  /** A user of org A holding exactly `bindings` (system ones without `org`), signed in. */
  makeUser(name: string, bindings: { role: string; org?: string }[]): Promise<SessionClient>;
  /** A user holding a builtin role as the matrix tries it: system roles beside OrgUser in A, org roles in A beside User. */
  roleUser(role: BuiltinRoleDef): Promise<SessionClient>;
}

export async function matrixWorld(): Promise<MatrixWorld> {
  const t = await createTestApp();
  const admin = await adminClient(t.app);
  const orgA = (await admin.post('/api/v1/orgs/orgs/', { name: 'Org A' })).json().id as string;
  const orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Org B' })).json().id as string;
  const makeUser = async (name: string, bindings: { role: string; org?: string }[]): Promise<SessionClient> => {
    const db = t.deps.database.db;
    const created = (
      await admin.post(
        '/api/v1/users/users/',
        {
          name,
          username: name,
          email: `${name}@example.com`,
          password_strategy: 'custom',
          password: MATRIX_PASSWORD,
        },
        { 'x-jms-org': orgA },
      )
    ).json();
    await db.deleteFrom('rbac_rolebinding').where('user_id', '=', created.id).execute();
    const now = new Date().toISOString();
    await db
      .insertInto('rbac_rolebinding')
      .values(
        bindings.map((b) => ({
          id: randomUUID(),
          user_id: created.id,
          role_id: b.role,
          scope: b.org ? ('org' as const) : ('system' as const),
          org_id: b.org ?? null,
          created_by: 'test',
          date_created: now,
        })),
      )
      .execute();
    const c = new SessionClient(t.app);
    const res = await c.login(name, MATRIX_PASSWORD);
    if (res.statusCode !== 200) throw new Error(`login ${name}: ${res.body}`);
    return c;
  };
  const roleUser = (role: BuiltinRoleDef) =>
    makeUser(
      `m_${role.name.toLowerCase()}`,
      role.scope === 'system'
        ? [{ role: role.id }, { role: BUILTIN_ROLE_IDS.OrgUser, org: orgA }]
        : [{ role: BUILTIN_ROLE_IDS.User }, { role: role.id, org: orgA }],
    );
  return { t, admin, orgA, orgB, makeUser, roleUser };
}
