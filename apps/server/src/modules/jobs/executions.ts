import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { toBool } from '../../platform/db/schema.ts';
import { openTaskLog } from '../ops/taskLog.ts';
import type { JobVersion } from './hostPlan.ts';

/**
 * An execution of a job: a `pending` row holding the job as it is now (`job_version`), which the
 * engine claims and runs. Its id is its task id: the task log opens under it at once, so the
 * console can subscribe before the first line. The engine is woken after the request's
 * transaction commits (`wakeAfter`), never before, or the row would not be seen.
 */
export type JobRow = Selectable<DB['ops_job']>;

const parseList = (s: string): string[] => {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

export function versionOf(job: JobRow): JobVersion {
  return {
    name: job.name,
    type: job.type,
    module: job.module,
    args: job.args,
    assets: parseList(job.assets),
    runas: job.runas,
    runas_policy: job.runas_policy,
    timeout: Number(job.timeout),
    chdir: job.chdir,
    playbook_id: job.playbook_id,
  };
}

export async function createExecution(
  db: Kysely<DB>,
  app: FastifyInstance,
  job: JobRow,
  o: { creatorId: string; createdBy: string; trigger: 'manual' | 'schedule'; parameters?: Record<string, unknown> },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('ops_jobexecution')
    .values({
      id,
      job_id: job.id,
      status: 'pending',
      trigger: o.trigger,
      parameters: JSON.stringify(o.parameters ?? {}),
      material: job.type === 'playbook' ? `playbook ${job.playbook_id ?? ''}` : `${job.module}:${job.args}`,
      job_type: job.type,
      job_version: JSON.stringify(versionOf(job)),
      summary: '{}',
      instance_id: null,
      is_finished: false,
      is_success: false,
      time_cost: 0,
      creator_id: o.creatorId,
      created_by: o.createdBy,
      date_created: new Date().toISOString(),
      date_start: null,
      date_finished: null,
      org_id: job.org_id,
    })
    .execute();
  await openTaskLog(app.deps.cache, id, o.creatorId);
  return id;
}

const toWake = new WeakSet<FastifyRequest>();

/** Wakes the engine once this request's answer is sent (its transaction committed). */
export function wakeAfter(req: FastifyRequest): void {
  toWake.add(req);
}

export function registerWake(app: FastifyInstance): void {
  app.addHook('onResponse', async (req) => {
    if (toWake.has(req)) await app.jobEngine.queued();
  });
}

export const isInstant = (job: { instant: unknown }) => toBool(job.instant as number);
