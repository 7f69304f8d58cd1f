import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../http/context.ts';
import { loadLdapConfig } from './config.ts';
import { searchAll, type LdapProfile } from './directory.ts';
import { importProfiles, type ImportReport } from './importUsers.ts';
import { existingOrgs } from '../providers/externalUsers.ts';

/**
 * The directory's users, read page by page into the cache (`ldap:users`, shared through Redis by
 * every instance), with the sync's state (`ldap:sync`). A sync holds `ldap:sync:lock` (the cache's
 * atomic increment: only the caller that counts 1 runs), so one runs at a time across instances;
 * the lock expires by itself should its instance die.
 */
const USERS_KEY = 'ldap:users';
const STATE_KEY = 'ldap:sync';
const LOCK_KEY = 'ldap:sync:lock';
/** Seconds the list is kept (the original's AUTH_LDAP_CACHE_TIMEOUT, 30 days). */
const USERS_TTL = 30 * 86400;
const LOCK_TTL = 3600;

export type SyncState =
  | { status: 'running'; at: number }
  | { status: 'done'; at: number; count: number }
  | { status: 'error'; at: number; error: string };

type Deps = Pick<AppDeps, 'cache' | 'settings'>;

export const syncState = (deps: Deps) => deps.cache.get<SyncState>(STATE_KEY);
export const cachedUsers = (deps: Deps) => deps.cache.get<LdapProfile[]>(USERS_KEY);

export async function clearCache(deps: Deps): Promise<void> {
  await deps.cache.delete(USERS_KEY);
  if ((await syncState(deps))?.status !== 'running') await deps.cache.delete(STATE_KEY);
}

/** Takes the sync's lock and marks it running; false when a sync holds it already. */
async function lock(deps: Deps): Promise<boolean> {
  if ((await deps.cache.incr(LOCK_KEY, LOCK_TTL)) !== 1) return false;
  await deps.cache.set(STATE_KEY, { status: 'running', at: Date.now() }, USERS_TTL);
  return true;
}

/** Reads the directory into the cache; false when a sync is running already (here or elsewhere). */
export async function runSync(deps: Deps): Promise<boolean> {
  if (!(await lock(deps))) return false;
  await locked(deps);
  return true;
}

/** The sync itself, the lock held; releases it. */
async function locked(deps: Deps): Promise<void> {
  try {
    const config = await loadLdapConfig(deps.settings);
    const users: LdapProfile[] = [];
    const count = await searchAll(config, (page) => users.push(...page));
    await deps.cache.set(USERS_KEY, users, USERS_TTL);
    await deps.cache.set(STATE_KEY, { status: 'done', at: Date.now(), count }, USERS_TTL);
  } catch (e) {
    await deps.cache.set(STATE_KEY, { status: 'error', at: Date.now(), error: (e as Error).message }, USERS_TTL);
  } finally {
    await deps.cache.delete(LOCK_KEY);
  }
}

/**
 * Starts a sync in the background; false when one is running. The state says `running` before this
 * returns, so a reader right after sees it.
 */
export async function startSync(app: FastifyInstance): Promise<boolean> {
  if (!(await lock(app.deps))) return false;
  void locked(app.deps).catch((e: Error) => app.log.error({ err: e.message }, 'LDAP sync failed'));
  return true;
}

/** The periodic sync (`import_ldap_user_periodic`): read the directory, import everyone into the sync orgs. */
export async function periodicImport(app: FastifyInstance): Promise<ImportReport | undefined> {
  if (!(await runSync(app.deps))) return undefined;
  const users = (await cachedUsers(app.deps)) ?? [];
  const orgIds = await existingOrgs(
    app.deps.database.db,
    (await app.deps.settings.valueOf('AUTH_LDAP_SYNC_ORG_IDS')) as string[],
  );
  const report = await importProfiles(app.deps.database.db, users, orgIds, 'System');
  app.log.info({ imported: report.imported, errors: report.errors.length }, 'LDAP periodic import');
  return report;
}
