import type { FastifyInstance } from 'fastify';

/**
 * Daily jobs (the original's celery beat `0 2 * * *` lines): `scheduleDaily(app, name, hour,
 * run)` runs `run` every day at `hour`:00 in the server's local time, from `onReady` until the app
 * closes. With several instances each day's run is claimed once through the cache (a counter per
 * job and date: the instance that counts 1 runs it). A failing run is logged and tried again the
 * next day. `nextRunAt` is exported for its test.
 */
const CLAIM_TTL = 2 * 86400;

export function nextRunAt(now: Date, hour: number): Date {
  const next = new Date(now);
  next.setHours(hour, 0, 0, 0);
  if (next.getTime() <= now.getTime()) next.setDate(next.getDate() + 1);
  return next;
}

function localDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function scheduleDaily(app: FastifyInstance, name: string, hour: number, run: () => Promise<void>): void {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const arm = () => {
    if (closed) return;
    const at = nextRunAt(new Date(), hour);
    // setTimeout holds at most ~24.8 days; a day is far below.
    timer = setTimeout(() => void fire(at), Math.max(1000, at.getTime() - Date.now()));
    timer.unref();
  };
  const fire = async (at: Date) => {
    try {
      const claimed = await app.deps.cache.incr(`gh:daily:${name}:${localDay(at)}`, CLAIM_TTL);
      if (claimed === 1) await run();
    } catch (e) {
      app.log.error({ err: (e as Error).message, job: name }, 'daily job failed');
    }
    arm();
  };
  app.addHook('onReady', async () => arm());
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(timer);
  });
}
