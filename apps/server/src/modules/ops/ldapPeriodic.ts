import type { FastifyInstance } from 'fastify';
import { periodicImport } from '../authentication/ldap/sync.ts';
import { OM } from './opsMessages.ts';
import { cycleOf, defineTask } from './tasks/registry.ts';

/**
 * The periodic LDAP import (`import_ldap_user_periodic`), one of Gatehouse's own tasks
 * (tasks/registry.ts): with AUTH_LDAP and AUTH_LDAP_SYNC_IS_PERIODIC, the job engine's scheduler
 * fires it by AUTH_LDAP_SYNC_CRONTAB (in the TIME_ZONE setting's zone) or else every
 * AUTH_LDAP_SYNC_INTERVAL hours, once across instances; it reads the directory and imports
 * everyone into AUTH_LDAP_SYNC_ORG_IDS.
 */
export const LDAP_PERIODIC_ID = 'import_ldap_user_periodic';

export function registerLdapPeriodic(app: FastifyInstance): void {
  const s = app.deps.settings;
  const schedule = async () => {
    if (!(await s.valueOf('AUTH_LDAP')) || !(await s.valueOf('AUTH_LDAP_SYNC_IS_PERIODIC'))) return undefined;
    const crontab = String((await s.valueOf('AUTH_LDAP_SYNC_CRONTAB')) ?? '');
    const interval = Number(await s.valueOf('AUTH_LDAP_SYNC_INTERVAL')) || 0;
    return { crontab, interval };
  };
  defineTask(app, {
    name: LDAP_PERIODIC_ID,
    comment: OM.task_ldap_import,
    queue: 'periodic',
    schedule,
    cycle: async (lang) => cycleOf(lang, await schedule()),
    async run(log) {
      const report = await periodicImport(app);
      if (!report) {
        await log.write('Another instance is syncing the directory');
        return { skipped: true };
      }
      await log.write(`${report.imported} imported, ${report.errors.length} errors`);
      return { imported: report.imported, errors: report.errors.length };
    },
  });
}
