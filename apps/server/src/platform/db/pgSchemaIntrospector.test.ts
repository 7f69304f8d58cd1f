import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * On a PostgreSQL shared with others, Gatehouse's introspection (the migrator's, the resource
 * framework's table list) sees its own schema only, and other schemas dropped meanwhile do not
 * fail it: the test drops schemas in a burst while migrating and listing tables.
 */
const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('introspection on a shared PostgreSQL', () => {
  const schema = `gh_test_intro_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  let database: Database;
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    database = await openDatabase(url!, { pgSchema: schema });
  });
  afterAll(async () => {
    await database?.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('migrates and lists its own tables while other schemas come and go', async () => {
    let churning = true;
    const others: string[] = [];
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        const other = `gh_test_churn_${randomBytes(4).toString('hex')}`;
        others.push(other);
        await admin.query(`CREATE SCHEMA ${other}; CREATE TABLE ${other}.zz_elsewhere (id int)`);
        await admin.query(`DROP SCHEMA ${other} CASCADE`);
      }
    })();
    try {
      for (let round = 0; round < 3; round++) await migrateToLatest(database.db, schema);
      for (let round = 0; round < 20; round++) {
        const tables = await database.db.introspection.getTables();
        const names = tables.map((t) => t.name);
        expect(names).toContain('users_user');
        expect(names).not.toContain('zz_elsewhere');
        expect(names).not.toContain('kysely_migration');
        expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([schema]));
      }
    } finally {
      churning = false;
      await churn;
    }
    expect(others.length).toBeGreaterThan(0);
    const users = (await database.db.introspection.getTables()).find((t) => t.name === 'users_user')!;
    expect(users.columns.find((c) => c.name === 'username')).toMatchObject({ dataType: 'varchar', isNullable: false });
    const withInternal = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(withInternal.map((t) => t.name)).toContain('kysely_migration');
    expect(await database.db.introspection.getSchemas()).toEqual([{ name: schema }]);
  }, 60_000);
});
