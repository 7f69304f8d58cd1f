import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { MIGRATIONS } from './migrations/index.ts';
import type { DB } from './schema.ts';

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Brings the schema up to date; returns the names of the migrations it applied. Areas number
 * their migrations in their own ranges (migrations/index.ts), so a later migration of a lower
 * range may arrive after a higher one ran: unordered application is allowed. On PostgreSQL the
 * migration tables live in the schema being migrated (`pgSchema`), never in another one.
 */
export async function migrateToLatest(db: Kysely<DB>, pgSchema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${(error as Error).message}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
