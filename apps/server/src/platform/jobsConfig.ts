import { ConfigError } from './configError.ts';

/**
 * The execution engine's settings per instance (docs/ops.md, "Jobs and the execution engine"), from
 * the environment.
 */
export interface JobsConfig {
  /**
   * `JOB_EXECUTIONS`: executions this instance runs at the same time (default 4; 0: it runs none and
   * only serves, schedules and sweeps, as an instance that answers the web but leaves work to others).
   */
  executions: number;
  /** `JOB_HOSTS`: hosts one execution runs on at the same time (default 20). */
  hosts: number;
  /**
   * `JOB_MINUTE_MS`: how long a schedule's minute lasts, ms (default 60000). Tests shorten it so a
   * crontab `* * * * *` fires every second; nothing else should change it.
   */
  minuteMs: number;
  /** `JOB_HEARTBEAT_MS`: how often a running instance says it is alive (default 10000); dead after 3 missed. */
  heartbeatMs: number;
}

const SETTINGS: [keyof JobsConfig, string, number, number][] = [
  ['executions', 'JOB_EXECUTIONS', 4, 0],
  ['hosts', 'JOB_HOSTS', 20, 1],
  ['minuteMs', 'JOB_MINUTE_MS', 60_000, 100],
  ['heartbeatMs', 'JOB_HEARTBEAT_MS', 10_000, 100],
];

export function loadJobsConfig(env: NodeJS.ProcessEnv): JobsConfig {
  const out = {} as JobsConfig;
  for (const [key, name, fallback, min] of SETTINGS) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      out[key] = fallback;
      continue;
    }
    if (!/^\d+$/.test(raw) || Number(raw) < min)
      throw new ConfigError(name, `"${raw}" is not a whole number of at least ${min}`);
    out[key] = Number(raw);
  }
  return out;
}
