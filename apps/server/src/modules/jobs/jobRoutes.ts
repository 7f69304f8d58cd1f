import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JOB_CENTRE_TYPES, ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError, permissionDenied } from '../../http/errors.ts';
import { toBool } from '../../platform/db/schema.ts';
import { isValidTimeZone } from '../../http/datetime.ts';
import { systemTimeZone } from '../acls/matcher/rules.ts';
import { isCronError, nextRuns, parseCrontab } from '../ops/engine/cron.ts';
import { readTaskLog } from '../ops/taskLog.ts';
import { usernameHints } from './jobAssets.ts';
import { jm } from './jobMessages.ts';
import { crontabError } from './jobValidate.ts';
import { shape } from '../../resource/describe.ts';
import type { Described } from '../../resource/routeMetadata.ts';

/**
 * The job centre's routes beside its resources: an execution's status and per-asset results, its
 * log by polling, run-as hints, the variables' help and a crontab's next runs. Executions are
 * looked up among the caller's own only: another user's answer 404 as if absent. While
 * `SECURITY_COMMAND_EXECUTION` is off every route of the job centre answers 403.
 */
export const JOB_PREFIXES = [
  '/api/v1/ops/jobs/',
  '/api/v1/ops/adhocs/',
  '/api/v1/ops/job-executions/',
  '/api/v1/ops/job-execution/',
  '/api/v1/ops/username-hints/',
  '/api/v1/ops/variables/',
  '/api/v1/ops/ansible/job-execution/',
  '/api/v1/ops/crontab/',
];

export function registerExecutionGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (req) => {
    const url = req.routeOptions.url ?? '';
    if (req.method === 'OPTIONS' || !JOB_PREFIXES.some((p) => url.startsWith(p))) return;
    if ((await app.deps.settings.get('SECURITY_COMMAND_EXECUTION')) === false)
      throw permissionDenied(req, jm(req.lang, 'command_execution_disabled'));
  });
}

/** One of the caller's executions in the request's org (any org from the global one). */
async function ownExecution(req: FastifyRequest, id: string) {
  let q = req.db
    .selectFrom('ops_jobexecution')
    .selectAll()
    .where('id', '=', id)
    .where('creator_id', '=', req.user!.id)
    .where('job_type', 'in', [...JOB_CENTRE_TYPES]);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await q.executeTakeFirst() : undefined;
  if (!row) throw new ApiError(404, { detail: jm(req.lang, 'execution_not_found'), code: 'not_found' });
  return row;
}

const VARIABLES = [
  { name: 'jms_asset.name', label: 'Asset name' },
  { name: 'jms_asset.address', label: 'Asset address' },
  { name: 'jms_asset.type', label: 'Asset type' },
  { name: 'jms_account.username', label: 'Account username' },
  { name: 'jms_username', label: 'User running the job' },
];

export function registerJobRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'ops.view_jobexecution' } };
  const described = (describe: Described) => ({ config: { ...view.config, describe } });
  const taskDetail = described(
    shape('execution', {
      status: 'string',
      is_finished: 'boolean',
      is_success: 'boolean',
      time_cost: 'field',
      job_id: 'string',
    }),
  );
  const assetDetail = described(
    shape('execution', {
      id: 'string',
      asset: 'object_related_field',
      account: 'string',
      status: 'string',
      reason: 'string',
      output: 'string',
      exit_code: 'integer',
      time_cost: 'field',
    }),
  );
  app.get<{ Params: { id: string } }>('/api/v1/ops/job-execution/task-detail/:id/', taskDetail, async (req) => {
    const e = await ownExecution(req, req.params.id);
    return {
      status: e.status,
      is_finished: toBool(e.is_finished),
      is_success: toBool(e.is_success),
      time_cost: Number(e.time_cost),
      job_id: e.job_id,
    };
  });
  app.get<{ Querystring: { execution_id?: string } }>(
    '/api/v1/ops/job-execution/asset-detail/',
    assetDetail,
    async (req) => {
      const e = await ownExecution(req, String(req.query.execution_id ?? ''));
      const rows = await req.db
        .selectFrom('ops_jobexecution_host')
        .selectAll()
        .where('execution_id', '=', e.id)
        .orderBy('asset')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        asset: { id: r.asset_id, name: r.asset },
        account: r.account,
        status: r.status,
        reason: r.reason,
        output: r.output,
        exit_code: r.exit_code,
        time_cost: Number(r.time_cost),
      }));
    },
  );
  // The contract's polling tail of an execution's log: `mark` is how many lines were read.
  app.get<{ Params: { id: string }; Querystring: { mark?: string } }>(
    '/api/v1/ops/ansible/job-execution/:id/log/',
    described(shape('execution', { data: 'string', end: 'boolean', mark: 'string' })),
    async (req) => {
      const e = await ownExecution(req, req.params.id);
      const from = /^\d+$/.test(req.query.mark ?? '') ? Number(req.query.mark) : 0;
      const chunk = await readTaskLog(app.deps.cache, e.id, from);
      if (!chunk.text && !chunk.ended && from === 0) return { data: 'Waiting task start', end: false, mark: '0' };
      return { data: chunk.text.replace(/\r?\n/g, '\r\n'), end: chunk.ended, mark: String(chunk.next) };
    },
  );
  app.post<{ Body: { nodes?: unknown; assets?: unknown; query?: unknown } }>(
    '/api/v1/ops/username-hints/',
    { config: { perm: 'ops.view_job' } },
    async (req) => {
      const ids = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
      const b = req.body ?? {};
      return usernameHints(req, ids(b.assets), ids(b.nodes), typeof b.query === 'string' ? b.query : '');
    },
  );
  const variables = shape('variable', { help: 'string', variables: 'list' });
  app.get('/api/v1/ops/variables/help/', { config: { perm: '*', describe: variables } }, async (req) => ({
    help: jm(req.lang, 'variables_help'),
    variables: VARIABLES,
  }));
  app.get<{ Querystring: { crontab?: string } }>(
    '/api/v1/ops/crontab/preview/',
    {
      config: { perm: '*', describe: shape('crontab', { crontab: 'string', time_zone: 'string', next_runs: 'list' }) },
    },
    async (req) => {
      const text = String(req.query.crontab ?? '');
      const c = parseCrontab(text);
      if (isCronError(c))
        throw new ApiError(400, {
          crontab: [crontabError(req.lang, text) ?? jm(req.lang, 'crontab_fields', { count: 0 })],
        });
      const tz = String((await app.deps.settings.get('TIME_ZONE')) || '');
      const zone = tz && isValidTimeZone(tz) ? tz : systemTimeZone();
      return {
        crontab: text.trim(),
        time_zone: zone,
        next_runs: nextRuns(c, Date.now(), zone).map((d) => d.toISOString()),
      };
    },
  );
}
