import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LANGUAGES, type Language } from '@gatehouse/contract';
import type { ExecutionHandler, ExecutionOutcome } from '../ops/engine/engine.ts';
import { SSH_MODULES, type HostResult, type Runner, type RunnerWork } from '../ops/engine/runner.ts';
import { playbookDir } from '../ops/playbooks/playbookFiles.ts';
import { blacklisted, planHosts, type JobVersion, type Refusal } from './hostPlan.ts';
import { pinHostKeys } from './hostKeys.ts';
import { DATABASE_MODULES } from './jobModules.ts';
import { jm } from './jobMessages.ts';

/**
 * What an execution does (the engine's handler): reads the job as it was when the execution was
 * made, applies the rules per asset (hostPlan.ts), hands the hosts left to the runner of the module
 * (`ssh` for shell and raw, `ansible` for the rest, when one is registered), streams each host's
 * lines into the task log prefixed by the host, and records one result per asset.
 */
const ANSIBLE_MISSING =
  'this module runs with Ansible, and ansible-playbook is not installed on this server (or the Ansible runner is not enabled)';

const LOG_LINES_PER_HOST = 5000;

function outcomeOf(results: HostResult[]): ExecutionOutcome['status'] {
  const bad = results.filter((r) => r.status === 'failed' || r.status === 'timeout');
  if (!bad.length) return results.some((r) => r.status === 'ok') ? 'success' : 'failed';
  return bad.every((r) => r.status === 'timeout') ? 'timeout' : 'failed';
}

export function jobExecutionHandler(app: FastifyInstance): ExecutionHandler {
  return async (exec, ctx) => {
    const db = app.deps.database.db;
    const v = JSON.parse(exec.job_version) as JobVersion;
    const params = JSON.parse(exec.parameters || '{}') as Record<string, unknown>;
    const user = await db
      .selectFrom('users_user')
      .select(['id', 'username', 'lang'])
      .where('id', '=', exec.creator_id)
      .executeTakeFirst();
    const lang: Language = (LANGUAGES as readonly string[]).includes(user?.lang ?? '')
      ? (user!.lang as Language)
      : 'en';
    // Lines go to the task log one after another, in the order they came, hosts interleaved.
    let chain: Promise<unknown> = Promise.resolve();
    const log = (line: string) => (chain = chain.then(() => ctx.log.write(line)).catch(() => undefined));
    const what = v.type === 'playbook' ? 'playbook' : v.module;
    await log(`>>> ${v.name}: ${what} on ${v.assets.length} asset(s), run as ${v.runas} (${v.runas_policy})`);
    let refusals: Refusal[] = [];
    let results: HostResult[] = [];
    const names = new Map<string, { asset: string; account: string }>();
    const streamed = new Map<string, number>();
    const labels = v.assets.length
      ? new Map(
          (
            await db.selectFrom('assets_asset').select(['id', 'name', 'address']).where('id', 'in', v.assets).execute()
          ).map((a) => [a.id, `${a.name}(${a.address})`]),
        )
      : new Map<string, string>();
    const everyAsset = (reason: string) =>
      v.assets.map((id) => ({
        result: { assetId: id, status: 'failed' as const, reason, output: '', timeCost: 0 },
        asset: labels.get(id) ?? id,
        account: '',
      }));
    const forbidden = blacklisted(v.args, await app.deps.settings.get('SECURITY_COMMAND_BLACKLIST'));
    if (!user) refusals = everyAsset('the job creator no longer exists');
    else if ((await app.deps.settings.get('SECURITY_COMMAND_EXECUTION')) === false)
      refusals = everyAsset(jm(lang, 'command_execution_disabled'));
    else if (forbidden.length)
      refusals = everyAsset(`refused: ${forbidden.join(', ')} is in SECURITY_COMMAND_BLACKLIST`);
    else {
      const plan = await planHosts(app, v, user, lang, { executionId: exec.id, signal: ctx.signal, log });
      refusals = plan.refusals;
      for (const h of plan.hosts) names.set(h.host.assetId, { asset: h.host.name, account: h.account });
      const playbook = v.type === 'playbook' && v.playbook_id;
      const runnerName = playbook
        ? 'ansible'
        : (SSH_MODULES as readonly string[]).includes(v.module)
          ? 'ssh'
          : DATABASE_MODULES.includes(v.module)
            ? 'database'
            : 'ansible';
      const runner: Runner | undefined = ctx.runner(runnerName);
      const work: RunnerWork = playbook
        ? { kind: 'playbook', dir: playbookDir(app.deps.config.dataDir, playbook) }
        : { kind: 'module', module: v.module, args: v.args };
      const ready = runner ? await runner.available(work) : { ok: false as const, reason: ANSIBLE_MISSING };
      if (!ready.ok)
        results = plan.hosts.map((h) => ({
          assetId: h.host.assetId,
          status: 'failed',
          reason: ready.reason,
          output: '',
          timeCost: 0,
        }));
      else if (plan.hosts.length) {
        // Ansible connects by itself: it is told each host's key, checked first (hostKeys.ts).
        const pinned =
          runnerName === 'ansible' && (playbook || !DATABASE_MODULES.includes(v.module))
            ? await pinHostKeys(app.deps.database.db, lang, plan.hosts, ctx.parallel)
            : { hosts: plan.hosts, refusals: [] };
        refusals = [...refusals, ...pinned.refusals];
        results = !pinned.hosts.length
          ? []
          : await runner!.run({
              executionId: exec.id,
              hosts: pinned.hosts.map((h) => h.host),
              work,
              timeout: v.timeout,
              chdir: v.chdir,
              variables: Object.fromEntries(Object.entries(params).map(([k, x]) => [k, String(x)])),
              parallel: ctx.parallel,
              signal: ctx.signal,
              output: (assetId, line) => {
                // The task log keeps a bounded number of lines per host; the record keeps the output's tail.
                const n = (streamed.get(assetId) ?? 0) + 1;
                streamed.set(assetId, n);
                const name = names.get(assetId)?.asset ?? assetId;
                if (n <= LOG_LINES_PER_HOST) void log(`[${name}] ${line}`);
                else if (n === LOG_LINES_PER_HOST + 1) void log(`[${name}] ... more output than the log shows`);
              },
            });
      }
    }
    for (const r of refusals) {
      names.set(r.result.assetId, { asset: r.asset, account: r.account });
      await log(`[${r.asset}] ${r.result.status}: ${r.result.reason}`);
    }
    const all = [...refusals.map((r) => r.result), ...results];
    const now = new Date().toISOString();
    if (all.length)
      await db
        .insertInto('ops_jobexecution_host')
        .values(
          all.map((r) => ({
            id: randomUUID(),
            execution_id: exec.id,
            asset_id: r.assetId,
            asset: names.get(r.assetId)?.asset ?? r.assetId,
            account: names.get(r.assetId)?.account ?? '',
            status: r.status,
            reason: r.reason,
            output: r.output,
            exit_code: r.exitCode ?? null,
            time_cost: r.timeCost,
            date_created: now,
          })),
        )
        .execute();
    const summary: Record<string, string[]> = { ok: [], failed: [], timeout: [], skipped: [] };
    for (const r of all) summary[r.status]!.push(names.get(r.assetId)?.asset ?? r.assetId);
    await log('>>> Summary');
    for (const [k, list] of Object.entries(summary))
      await log(`${k}: ${list.length}${list.length ? ` (${list.join(', ')})` : ''}`);
    for (const r of results)
      if (r.status !== 'ok') await log(`[${names.get(r.assetId)?.asset ?? r.assetId}] ${r.status}: ${r.reason}`);
    await chain;
    await db.updateTable('ops_job').set({ date_last_run: now }).where('id', '=', exec.job_id).execute();
    return { status: outcomeOf(all), summary };
  };
}
