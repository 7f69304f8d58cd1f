import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  BUILTIN_ROLES,
  BUILTIN_ROLE_IDS,
  DEFAULT_ORG_ID,
  DEFAULT_ORG_NAME,
  SYSTEM_ORG_ID,
  SYSTEM_ORG_NAME,
} from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso } from '../../platform/db/schema.ts';
import { generatePassword, hashPassword } from '../../platform/crypto/password.ts';

export const ADMIN_PASSWORD_FILE = 'initial-admin-password.txt';

/** Users default to expiring 70 years after creation. */
export function defaultDateExpired(from = new Date()): string {
  const d = new Date(from);
  d.setUTCFullYear(d.getUTCFullYear() + 70);
  return d.toISOString();
}

async function ensureOrgs(db: Kysely<DB>): Promise<void> {
  const now = nowIso();
  for (const [id, name] of [
    [DEFAULT_ORG_ID, DEFAULT_ORG_NAME],
    [SYSTEM_ORG_ID, SYSTEM_ORG_NAME],
  ] as const) {
    await db
      .insertInto('orgs_organization')
      .values({ id, name, builtin: true, comment: '', created_by: 'System', date_created: now, date_updated: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
}

async function ensureRoles(db: Kysely<DB>): Promise<void> {
  const now = nowIso();
  for (const r of BUILTIN_ROLES) {
    await db
      .insertInto('rbac_role')
      .values({
        id: r.id,
        name: r.name,
        scope: r.scope,
        builtin: true,
        comment: '',
        created_by: 'System',
        updated_by: 'System',
        date_created: now,
        date_updated: now,
      })
      .onConflict((oc) => oc.column('id').doUpdateSet({ name: r.name, scope: r.scope, builtin: true }))
      .execute();
  }
}

export interface SeedResult {
  /** Set when the admin was created now with a generated password. */
  generatedAdminPassword?: string;
  adminCreated: boolean;
}

/**
 * Creates what a fresh install needs: the Default and system-setting organisations, the builtin
 * roles, and the `admin` user with the SystemAdmin role. Idempotent; runs at every start.
 */
/**
 * Whether the new admin must go through the first-login page: yes, unless
 * `GATEHOUSE_ADMIN_FIRST_LOGIN` is `0` or `false` (test and automated installs).
 */
export function adminFirstLogin(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env.GATEHOUSE_ADMIN_FIRST_LOGIN ?? '').trim().toLowerCase();
  return !(v === '0' || v === 'false' || v === 'no');
}

export async function seed(
  db: Kysely<DB>,
  opts: { adminPassword?: string; dataDir: string; adminFirstLogin?: boolean },
): Promise<SeedResult> {
  await ensureOrgs(db);
  await ensureRoles(db);
  const existing = await db.selectFrom('users_user').select('id').where('username', '=', 'admin').executeTakeFirst();
  if (existing) return { adminCreated: false };

  const generated = opts.adminPassword ? undefined : generatePassword();
  const password = opts.adminPassword ?? generated!;
  const now = nowIso();
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users_user')
      .values({
        id,
        username: 'admin',
        name: 'Administrator',
        email: 'admin@example.com',
        password: await hashPassword(password),
        is_active: true,
        is_first_login: opts.adminFirstLogin ?? adminFirstLogin(),
        need_update_password: false,
        is_service_account: false,
        source: 'local',
        mfa_level: 0,
        phone: '',
        wechat: '',
        comment: '',
        date_expired: defaultDateExpired(),
        date_joined: now,
        last_login: null,
        date_password_last_updated: now,
        created_by: 'System',
        updated_by: 'System',
        date_updated: now,
      })
      .execute();
    await trx
      .insertInto('rbac_rolebinding')
      .values([
        {
          id: randomUUID(),
          scope: 'system',
          user_id: id,
          role_id: BUILTIN_ROLE_IDS.SystemAdmin,
          org_id: null,
          created_by: 'System',
          date_created: now,
        },
        {
          id: randomUUID(),
          scope: 'org',
          user_id: id,
          role_id: BUILTIN_ROLE_IDS.OrgUser,
          org_id: DEFAULT_ORG_ID,
          created_by: 'System',
          date_created: now,
        },
      ])
      .execute();
  });
  if (generated) {
    fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(opts.dataDir, ADMIN_PASSWORD_FILE);
    fs.writeFileSync(file, `${generated}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }
  return { adminCreated: true, ...(generated ? { generatedAdminPassword: generated } : {}) };
}
