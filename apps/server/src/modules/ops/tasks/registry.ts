import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { I18nText, Language } from '@gatehouse/contract';
import { toBool } from '../../../platform/db/schema.ts';
import { openTaskLog, type TaskLogWriter } from '../taskLog.ts';
import { startScheduler, type Periodic } from '../engine/scheduler.ts';
import { om } from '../opsMessages.ts';

/**
 * Gatehouse's own tasks (Settings › Tasks, docs/ops.md "Gatehouse's own tasks"): each module
 * declares its periodic or background work here with `defineTask`; `runTask` records every run as
 * a row of `ops_taskexecution` (state, times, result or error) with a task log of its own. The
 * periodic ones with a `schedule` are fired by the job engine's scheduler (once across instances,
 * `engine/scheduler.ts`); one switched off (`ops_periodictask`) is not fired, nor run by a
 * schedule of its own.
 */
export interface TaskDef {
  name: string;
  comment: I18nText;
  /** Where it runs: `periodic` (a schedule), `default` (in the background after a request). */
  queue: 'periodic' | 'default';
  /** How often it runs, in a language, as the list shows it. */
  cycle?: (lang: Language) => Promise<string>;
  /** A periodic task the engine's scheduler fires: its schedule now, or undefined while its feature is off. */
  schedule?: () => Promise<Omit<Periodic, 'id'> | undefined>;
  run(log: TaskLogWriter): Promise<Record<string, unknown> | void>;
}

export type TaskTrigger = 'schedule' | 'manual' | 'start';

const registries = new WeakMap<FastifyInstance, Map<string, TaskDef>>();

export function tasksOf(app: FastifyInstance): Map<string, TaskDef> {
  let m = registries.get(app);
  if (!m) registries.set(app, (m = new Map()));
  return m;
}

export function defineTask(app: FastifyInstance, def: TaskDef): void {
  tasksOf(app).set(def.name, def);
}

export async function isEnabled(app: FastifyInstance, name: string): Promise<boolean> {
  const row = await app.deps.database.db
    .selectFrom('ops_periodictask')
    .select('enabled')
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? toBool(row.enabled) : true;
}

/**
 * Runs a task now and records it; answers the execution's id, or undefined when a schedule fired a
 * task that is switched off. `wait` false returns once the row is written and runs after.
 */
export async function runTask(
  app: FastifyInstance,
  name: string,
  trigger: TaskTrigger,
  opts: { creatorId?: string; wait?: boolean } = {},
): Promise<string | undefined> {
  const def = tasksOf(app).get(name);
  if (!def) throw new Error(`no task ${name}`);
  if (trigger === 'schedule' && !(await isEnabled(app, name))) return undefined;
  const db = app.deps.database.db;
  const id = randomUUID();
  const started = new Date();
  await db
    .insertInto('ops_taskexecution')
    .values({
      id,
      task_name: name,
      trigger,
      creator_id: opts.creatorId ?? null,
      state: 'running',
      date_start: started.toISOString(),
      time_cost: 0,
      result: '{}',
      error: '',
    })
    .execute();
  const work = async () => {
    const log = await openTaskLog(app.deps.cache, id, opts.creatorId ?? '');
    let state = 'success';
    let result: Record<string, unknown> = {};
    let error = '';
    try {
      await log.write(`>>> ${def.name} (${trigger})`);
      result = (await def.run(log)) ?? {};
      await log.write('>>> Done');
    } catch (e) {
      state = 'failure';
      error = String((e as Error).message || e).slice(0, 2000);
      await log.write(`>>> Failed: ${error}`).catch(() => undefined);
      app.log.error({ task: name, err: error }, 'task failed');
    }
    await log.end().catch(() => undefined);
    const finished = new Date();
    await db
      .updateTable('ops_taskexecution')
      .set({
        state,
        date_finished: finished.toISOString(),
        time_cost: (finished.getTime() - started.getTime()) / 1000,
        result: JSON.stringify(result),
        error,
      })
      .where('id', '=', id)
      .execute();
  };
  if (opts.wait === false) void work();
  else await work();
  return id;
}

/** The engine's scheduler fires the periodic tasks that have a schedule and are switched on. */
export function registerTaskScheduler(app: FastifyInstance): void {
  let stop: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stop = startScheduler(app, {
      async periodic() {
        const out: Periodic[] = [];
        for (const def of tasksOf(app).values()) {
          if (!def.schedule || !(await isEnabled(app, def.name))) continue;
          const s = await def.schedule();
          if (s) out.push({ id: def.name, ...s });
        }
        return out;
      },
      async fire(id) {
        await runTask(app, id, 'schedule').catch((e: Error) =>
          app.log.error({ task: id, err: e.message }, 'periodic task failed'),
        );
      },
    });
  });
  app.addHook('onClose', async () => stop?.());
}

/** How a schedule reads: its crontab, every N hours, or off. */
export function cycleOf(lang: Language, s: Omit<Periodic, 'id'> | undefined): string {
  if (!s) return om(lang, 'cycle_off');
  if (s.crontab.trim()) return om(lang, 'cycle_crontab', { crontab: s.crontab });
  return s.interval === 1 ? om(lang, 'cycle_hourly') : om(lang, 'cycle_hours', { n: s.interval });
}
