import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { nowIso } from '../../platform/db/schema.ts';
import { actorOf } from '../../resource/audit.ts';
import { setPushAccounts } from '../accounts/pushPort.ts';
import { wakeAfter } from '../jobs/executions.ts';
import { openTaskLog } from '../ops/taskLog.ts';
import type { AutomationVersion } from './automationExecutions.ts';

/**
 * Pushing chosen accounts now (the account form's `push_now`, `accounts/tasks/` `push`): one
 * push execution without a plan (`job_id` empty) over exactly those accounts of the caller's org,
 * each with its own `params` (sudo, shell, home). The engine runs it after the answer.
 */
export function registerPushNow(app: FastifyInstance): void {
  setPushAccounts(async (ctx, accountIds) => {
    const req = ctx.req;
    let q = ctx.db
      .selectFrom('accounts_account')
      .select(['id', 'username', 'asset_id', 'org_id'])
      .where('id', 'in', accountIds.length ? accountIds : ['']);
    if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
    const accounts = await q.execute();
    const id = randomUUID();
    const assets = [...new Set(accounts.map((a) => a.asset_id))];
    const version: AutomationVersion & { account_ids: string[] } = {
      type: 'push_account',
      name: `push ${accounts.map((a) => a.username).join(', ')}`.slice(0, 120),
      comment: '',
      accounts: [...new Set(accounts.map((a) => a.username))],
      account_ids: accounts.map((a) => a.id),
      assets,
      node_amount: 0,
      asset_amount: assets.length,
      secret_type: 'password',
      secret_strategy: 'specific',
      secret: null,
      passphrase: null,
      password_rules: {},
      ssh_key_change_strategy: 'add',
      params: {},
      is_sync_account: false,
    };
    await ctx.db
      .insertInto('ops_jobexecution')
      .values({
        id,
        job_id: '',
        status: 'pending',
        trigger: 'manual',
        parameters: '{}',
        material: 'push_account:now',
        job_type: 'push_account',
        job_version: JSON.stringify(version),
        summary: '{}',
        instance_id: null,
        is_finished: false,
        is_success: false,
        time_cost: 0,
        creator_id: req.user!.id,
        created_by: actorOf(req),
        date_created: nowIso(),
        date_start: null,
        date_finished: null,
        org_id: accounts[0]?.org_id ?? req.org.id,
      })
      .execute();
    await openTaskLog(app.deps.cache, id, req.user!.id);
    wakeAfter(req);
    return id;
  });
}
