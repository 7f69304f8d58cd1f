import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID, SYSTEM_ORG_ID } from '@gatehouse/contract';
import { createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { verifyPassword } from '../../platform/crypto/password.ts';
import { ADMIN_PASSWORD_FILE, adminFirstLogin, seed } from './seed.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('first start', () => {
  it('creates the Default and system-setting organisations, the builtin roles and the admin', async () => {
    t = await createTestApp({}, { fresh: true });
    const db = t.deps.database.db;
    const orgs = await db.selectFrom('orgs_organization').select(['id', 'name']).orderBy('id').execute();
    expect(orgs).toEqual([
      { id: DEFAULT_ORG_ID, name: 'DEFAULT' },
      { id: SYSTEM_ORG_ID, name: 'SYSTEM' },
    ]);
    const roles = await db.selectFrom('rbac_role').select('id').execute();
    expect(roles.map((r) => r.id).sort()).toEqual(Object.values(BUILTIN_ROLE_IDS).sort());
    const admin = await db
      .selectFrom('users_user')
      .selectAll()
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(Boolean(admin.is_first_login)).toBe(true);
    expect(admin.password).toMatch(/^scrypt\$/);
    expect(await verifyPassword('Adm1n-secret!', admin.password)).toBe(true);
    const binding = await db
      .selectFrom('rbac_rolebinding')
      .select(['role_id', 'scope'])
      .where('user_id', '=', admin.id)
      .where('scope', '=', 'system')
      .execute();
    expect(binding).toEqual([{ role_id: BUILTIN_ROLE_IDS.SystemAdmin, scope: 'system' }]);
    // Configured password: nothing written to disk.
    expect(fs.existsSync(path.join(t.dataDir, ADMIN_PASSWORD_FILE))).toBe(false);
  });

  it('generates a password when none is configured, writes it for the owner only, and never twice', async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    await db.deleteFrom('users_user').execute();
    const first = await seed(db, { dataDir: t.dataDir });
    expect(first.generatedAdminPassword).toMatch(/^\S{20}$/);
    const file = path.join(t.dataDir, ADMIN_PASSWORD_FILE);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.generatedAdminPassword);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const hash = (await db.selectFrom('users_user').select('password').executeTakeFirstOrThrow()).password;
    expect(await verifyPassword(first.generatedAdminPassword!, hash)).toBe(true);
    const second = await seed(db, { dataDir: t.dataDir });
    expect(second).toEqual({ adminCreated: false });
  });
});

describe('the first-login flag of the seeded admin', () => {
  it('is set unless GATEHOUSE_ADMIN_FIRST_LOGIN turns it off', () => {
    expect(adminFirstLogin({})).toBe(true);
    expect(adminFirstLogin({ GATEHOUSE_ADMIN_FIRST_LOGIN: '1' })).toBe(true);
    expect(adminFirstLogin({ GATEHOUSE_ADMIN_FIRST_LOGIN: '0' })).toBe(false);
    expect(adminFirstLogin({ GATEHOUSE_ADMIN_FIRST_LOGIN: 'false' })).toBe(false);
  });

  it('is stored as asked', async () => {
    t = await createTestApp();
    const db = t.deps.database.db;
    await db.deleteFrom('rbac_rolebinding').execute();
    await db.deleteFrom('users_user').where('username', '=', 'admin').execute();
    await seed(db, { adminPassword: 'Adm1n-secret!', dataDir: t.dataDir, adminFirstLogin: false });
    const admin = await db
      .selectFrom('users_user')
      .select('is_first_login')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(Boolean(admin.is_first_login)).toBe(false);
  });
});
