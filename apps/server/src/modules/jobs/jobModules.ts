import { JM } from './jobMessages.ts';
import type { Choice } from '../../resource/types.ts';

/**
 * The modules a job runs (the contract's `module` choices) and where each may run: the platform
 * categories and types of the assets it fits. A module refused for an asset's platform is refused
 * on that asset with a reason, not run.
 */
export const JOB_MODULES = ['shell', 'win_shell', 'python', 'mysql', 'postgresql', 'sqlserver', 'raw'] as const;
/** Saved ad-hoc commands also name these (the contract's AdHocModules). */
export const ADHOC_MODULES = [...JOB_MODULES, 'mariadb', 'oracle'] as const;
/** Modules that reach a database by its own protocol (no SSH, no host key). */
export const DATABASE_MODULES: readonly string[] = ['mysql', 'mariadb', 'postgresql', 'sqlserver', 'oracle'];

const LABELS: Record<string, string> = {
  shell: 'Shell',
  win_shell: 'Powershell',
  python: 'Python',
  mysql: 'MySQL',
  postgresql: 'PostgreSQL',
  sqlserver: 'SQLServer',
  raw: 'Raw',
  mariadb: 'MariaDB',
  oracle: 'Oracle',
};

export const moduleChoices = (list: readonly string[]): Choice[] =>
  list.map((m) => ({ value: m, label: { en: LABELS[m]!, zh: LABELS[m]!, ja: LABELS[m]! } }));

export const RUNAS_POLICIES = ['privileged_only', 'privileged_first', 'skip'] as const;
export type RunasPolicy = (typeof RUNAS_POLICIES)[number];
export const policyChoices: Choice[] = RUNAS_POLICIES.map((p) => ({ value: p, label: JM[`policy_${p}`] }));

/** Whether `module` can run on an asset of this category and type; the reason when not. */
export function moduleFits(module: string, category: string, type: string): string | undefined {
  const where = `${category}/${type}`;
  const no = (needs: string) => `module ${module} needs ${needs}; this asset is ${where}`;
  switch (module) {
    case 'shell':
    case 'python':
      return category === 'host' && type !== 'windows' ? undefined : no('a Linux or Unix host');
    case 'raw':
      return (category === 'host' && type !== 'windows') || category === 'device'
        ? undefined
        : no('an SSH host or device');
    case 'win_shell':
      return category === 'host' && type === 'windows' ? undefined : no('a Windows host');
    case 'mysql':
    case 'mariadb':
      return category === 'database' && (type === 'mysql' || type === 'mariadb') ? undefined : no('a MySQL database');
    case 'postgresql':
      return category === 'database' && type === 'postgresql' ? undefined : no('a PostgreSQL database');
    case 'sqlserver':
      return category === 'database' && type === 'sqlserver' ? undefined : no('a SQL Server database');
    default:
      return `module ${module} is not run by the job centre`;
  }
}
