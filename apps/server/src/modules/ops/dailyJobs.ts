import type { FastifyInstance } from 'fastify';
import type { Cache } from '../../platform/cache/cache.ts';
import { isValidTimeZone, wallClock } from '../../http/datetime.ts';
import { systemTimeZone } from '../acls/matcher/rules.ts';

/**
 * Daily jobs (the original's celery beat `0 2 * * *` lines, read in its `TIME_ZONE`):
 * `scheduleDaily(app, name, hour, run)` runs `run` every day at `hour`:00 in the `TIME_ZONE`
 * setting's zone (the system's when empty or unknown), from `onReady` until the app closes. The zone is read
 * again at every wake-up, and the timer wakes at least hourly, so a changed setting applies within
 * the hour. An hour that a daylight-saving jump skips runs at the first instant after the gap
 * (02:00 becomes 03:00). With several instances each day's run is claimed once through the cache
 * (a counter per job and local date: the instance that counts 1 runs it). A failing run is logged
 * and tried again the next day. `startDaily` takes a clock and timers for its test.
 */
const CLAIM_TTL = 2 * 86400;
const HOUR = 3_600_000;

/** The zone's offset from UTC in ms at an instant (minute precision). */
function offsetAt(t: number, zone: string): number {
  const w = wallClock(t, zone);
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi);
  return asUtc - (t - (((t % 60_000) + 60_000) % 60_000));
}

/** The instant the wall clock of `zone` reads y-mo-d h:00; in a daylight-saving gap, the gap's end. */
function instantOf(y: number, mo: number, d: number, h: number, zone: string): number {
  const local = Date.UTC(y, mo - 1, d, h);
  const first = local - offsetAt(local - offsetAt(local, zone), zone);
  const off = offsetAt(first, zone);
  return off === local - first ? first : local - off;
}

/** The next `hour`:00 in `zone` strictly after `now`. */
export function nextRunAt(now: Date, hour: number, zone: string): Date {
  const w = wallClock(now.getTime(), zone);
  for (let day = 0; day < 3; day++) {
    const at = instantOf(w.y, w.mo, w.d + day, hour, zone);
    if (at > now.getTime()) return new Date(at);
  }
  throw new Error(`no ${hour}:00 in ${zone} after ${now.toISOString()}`);
}

/** The date (YYYY-MM-DD) of an instant in a zone: the key of a day's claim. */
export function localDay(at: Date, zone: string): string {
  const w = wallClock(at.getTime(), zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.y}-${pad(w.mo)}-${pad(w.d)}`;
}

export interface DailyClock {
  now(): number;
  setTimer(fn: () => void, ms: number): { unref?: () => void };
  clearTimer(timer: unknown): void;
}

const realClock: DailyClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export interface DailyDeps {
  cache: Cache;
  settings: { get(name: 'TIME_ZONE'): Promise<unknown> };
  log: (err: Error) => void;
}

/** Runs `run` daily at `hour`:00 in `TIME_ZONE` until the returned stop is called. */
export function startDaily(
  deps: DailyDeps,
  name: string,
  hour: number,
  run: () => Promise<void>,
  clock: DailyClock = realClock,
): () => void {
  let timer: unknown;
  let closed = false;
  // A zone Intl does not know (a setting written before validation) would stop the job: the system's.
  const zone = async () => {
    const tz = String((await deps.settings.get('TIME_ZONE')) || '');
    return tz && isValidTimeZone(tz) ? tz : systemTimeZone();
  };
  const arm = async () => {
    if (closed) return;
    const tz = await zone();
    const at = nextRunAt(new Date(clock.now()), hour, tz);
    const wait = at.getTime() - clock.now();
    const t = clock.setTimer(() => void (wait <= HOUR ? fire(at, tz) : arm().catch(deps.log)), Math.min(HOUR, wait));
    t.unref?.();
    timer = t;
  };
  const fire = async (at: Date, tz: string) => {
    try {
      const claimed = await deps.cache.incr(`gh:daily:${name}:${localDay(at, tz)}`, CLAIM_TTL);
      if (claimed === 1) await run();
    } catch (e) {
      deps.log(e as Error);
    }
    // Woken a little early, the next run is this one again: its claim (counted 2) keeps it from running twice.
    await arm().catch(deps.log);
  };
  void arm().catch(deps.log);
  return () => {
    closed = true;
    clock.clearTimer(timer);
  };
}

export function scheduleDaily(app: FastifyInstance, name: string, hour: number, run: () => Promise<void>): void {
  let stop: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stop = startDaily(
      {
        cache: app.deps.cache,
        settings: app.deps.settings,
        log: (e) => app.log.error({ err: e.message, job: name }, 'daily job failed'),
      },
      name,
      hour,
      run,
    );
  });
  app.addHook('onClose', async () => stop?.());
}
