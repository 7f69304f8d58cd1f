import type { FastifyInstance } from 'fastify';
import { isValidTimeZone } from '../../../http/datetime.ts';
import { systemTimeZone } from '../../acls/matcher/rules.ts';
import { cronMatches, isCronError, parseCrontab } from './cron.ts';

/**
 * Schedules of periodic work. Every instance wakes at each minute boundary (`JOB_MINUTE_MS`, 60 s
 * unless a test shortens it), asks the source for what is periodic, and for each one due in that
 * minute claims the tick in the cache (a counter keyed by the schedule and the minute's number:
 * the instance that counts 1 fires it, shared through Redis), so a schedule fires once across
 * instances. A crontab is read in the `TIME_ZONE` setting's zone and wins over an interval; an
 * interval of N hours fires at every minute number divisible by N x 60. With a shortened minute
 * the schedule's clock runs faster (minute k of the epoch is tick k).
 */
export interface Periodic {
  id: string;
  crontab: string;
  /** Hours. */
  interval: number;
}

export interface ScheduleSource {
  periodic(): Promise<Periodic[]>;
  /** Fires one schedule for tick `tick` (its minute number). */
  fire(id: string, tick: number): Promise<void>;
}

const CLAIM_TTL = 2 * 86400;

export function isDue(p: Periodic, tick: number, zone: string): boolean {
  if (p.crontab.trim()) {
    const c = parseCrontab(p.crontab);
    return !isCronError(c) && cronMatches(c, tick * 60_000, zone);
  }
  const every = Math.round(p.interval * 60);
  return every > 0 && tick % every === 0;
}

export function startScheduler(app: FastifyInstance, source: ScheduleSource): () => void {
  const minute = app.deps.config.jobs.minuteMs;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const zone = async () => {
    const tz = String((await app.deps.settings.get('TIME_ZONE')) || '');
    return tz && isValidTimeZone(tz) ? tz : systemTimeZone();
  };
  const tickAt = (tick: number) => async () => {
    try {
      const tz = await zone();
      for (const p of await source.periodic()) {
        if (!isDue(p, tick, tz)) continue;
        const n = await app.deps.cache.incr(`gh:jobs:tick:${p.id}:${tick}`, CLAIM_TTL);
        if (n === 1) await source.fire(p.id, tick);
      }
    } catch (e) {
      app.log.error({ err: (e as Error).message }, 'schedule tick failed');
    }
    arm();
  };
  const arm = () => {
    if (closed) return;
    const now = Date.now();
    const next = Math.floor(now / minute) + 1;
    timer = setTimeout(() => void tickAt(next)(), next * minute - now);
    timer.unref();
  };
  arm();
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
  };
}
