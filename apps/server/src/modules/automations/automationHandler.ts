import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LANGUAGES, type Language } from '@gatehouse/contract';
import { nowIso } from '../../platform/db/schema.ts';
import type { ExecutionHandler, ExecutionRecovery, ExecutionRow } from '../ops/engine/engine.ts';
import { inParallel } from '../jobs/hostLimits.ts';
import { am } from './automationText.ts';
import { parseJson, type AutomationVersion } from './automationExecutions.ts';
import { changeAccount, settleRecord, Stopped, secretOf, type RecordRow } from './changeSecretRun.ts';
import { NotApplicable, protocolFor, SAFE_USERNAME, type HostProtocol } from './hostProtocols.ts';
import { gatherAsset } from './gatherRun.ts';
import { createTemplateAccounts, type TemplateVersion } from './templateAccounts.ts';
import { notify } from '../notifications/notify.ts';
import { escapeHtml } from '../notifications/sanitize.ts';

/**
 * The engine's handler for account automations (`job_type` change_secret, push_account,
 * gather_accounts): the automation's assets run `JOB_HOSTS` at a time, the accounts of one asset
 * one after another; each account ends in a record (`accounts_automationrecord`), each step in the
 * task log. Recovery settles the records a run left unsettled (changeSecretRun.ts).
 */
async function langOf(app: FastifyInstance, userId: string): Promise<Language> {
  const u = await app.deps.database.db
    .selectFrom('users_user')
    .select('lang')
    .where('id', '=', userId)
    .executeTakeFirst();
  return (LANGUAGES as readonly string[]).includes(u?.lang ?? '') ? (u!.lang as Language) : 'en';
}

async function failedRecord(
  app: FastifyInstance,
  exec: ExecutionRow,
  account: { id: string; name: string; username: string; asset_id: string; secret_type: string },
  assetName: string,
  error: string,
): Promise<RecordRow> {
  const now = nowIso();
  const rec: RecordRow = {
    id: randomUUID(),
    type: exec.job_type,
    execution_id: exec.id,
    automation_id: exec.job_id,
    asset_id: account.asset_id,
    asset_name: assetName,
    account_id: account.id,
    account_name: account.name,
    username: account.username,
    status: 'failed',
    state: 'old',
    secret_type: account.secret_type,
    new_secret: null,
    new_passphrase: null,
    old_secret: null,
    old_passphrase: null,
    old_version: 0,
    error,
    date_started: now,
    date_finished: now,
    org_id: exec.org_id,
  };
  await app.deps.database.db.insertInto('accounts_automationrecord').values(rec).execute();
  return rec;
}

/** Push: the vault's account created on the asset with its secret, then a fresh login with it. */
async function pushAccount(
  app: FastifyInstance,
  lang: Language,
  proto: HostProtocol,
  v: AutomationVersion,
  exec: ExecutionRow,
  account: Parameters<typeof failedRecord>[2] & { secret: string | null; passphrase: string | null; params: string },
  assetName: string,
  log: (l: string) => void,
): Promise<RecordRow> {
  const secret = secretOf(app, account.secret_type, account.secret, account.passphrase);
  if (!secret) return failedRecord(app, exec, account, assetName, am(lang, 'secret_required'));
  const label = `[${assetName}] ${account.username}`;
  const started = nowIso();
  let error = '';
  try {
    log(`${label}: pushing`);
    // The plan's params, then the account's own (the account form's `params`).
    const params = { ...v.params, ...parseJson<Record<string, unknown>>(account.params, {}) };
    await proto.create(account.username, secret, {
      sudo: params.sudo === true || params.sudo === 'true',
      shell: /^\/[\w/.-]*$/.test(String(params.shell ?? '')) ? String(params.shell) : '/bin/bash',
      home: /^\/[\w/.-]*$/.test(String(params.home ?? '')) ? String(params.home) : '',
    });
    error = (await proto.login(account.username, secret)) ?? '';
    if (error) error = am(lang, 'changed_then', { what: am(lang, 'verify_failed', { error }) });
  } catch (e) {
    error = (e as Error).message;
  }
  log(`${label}: ${error ? `failed: ${error}` : 'pushed and verified'}`);
  const rec: RecordRow = {
    id: randomUUID(),
    type: 'push_account',
    execution_id: exec.id,
    automation_id: exec.job_id,
    asset_id: account.asset_id,
    asset_name: assetName,
    account_id: account.id,
    account_name: account.name,
    username: account.username,
    status: error ? 'failed' : 'success',
    state: error ? '' : 'new',
    secret_type: account.secret_type,
    new_secret: null,
    new_passphrase: null,
    old_secret: null,
    old_passphrase: null,
    old_version: 0,
    error,
    date_started: started,
    date_finished: nowIso(),
    org_id: exec.org_id,
  };
  await app.deps.database.db.insertInto('accounts_automationrecord').values(rec).execute();
  if (!error)
    await app.deps.database.db
      .updateTable('accounts_account')
      .set({ connectivity: 'ok', date_verified: nowIso() })
      .where('id', '=', account.id)
      .execute();
  return rec;
}

export function automationHandler(app: FastifyInstance): ExecutionHandler {
  return async (exec, ctx) => {
    const db = app.deps.database.db;
    const v = parseJson<AutomationVersion>(exec.job_version, {} as AutomationVersion);
    const lang = await langOf(app, exec.creator_id);
    let chain: Promise<unknown> = Promise.resolve();
    const log = (line: string) => void (chain = chain.then(() => ctx.log.write(line)).catch(() => undefined));
    log(`>>> ${v.name}: ${exec.job_type} of ${v.accounts.join(', ') || '-'} on ${v.assets.length} asset(s)`);
    const assets = v.assets.length
      ? await db
          .selectFrom('assets_asset')
          .select(['id', 'name', 'address'])
          .where('id', 'in', v.assets)
          .where('org_id', '=', exec.org_id)
          .orderBy('name')
          .execute()
      : [];
    if (!assets.length) {
      log(`!!! ${am(lang, 'no_assets_on_run')}`);
      await chain;
      return { status: 'failed', summary: { error: am(lang, 'no_assets_on_run') } };
    }
    const counts = { ok: 0, failed: 0 };
    const usernames = new Set(v.accounts);
    const named = (v as { account_ids?: string[] }).account_ids;
    const ids = named ? new Set(named) : undefined;
    await inParallel(assets, ctx.parallel, async (asset) => {
      const name = `${asset.name}(${asset.address})`;
      if (ctx.signal.aborted) return;
      if (exec.job_type === 'gather_accounts') {
        const ok = await gatherAsset(app, lang, exec, v, asset, log);
        counts[ok ? 'ok' : 'failed'] += 1;
        return;
      }
      // The asset's accounts, matched here: a plan over N assets and N usernames would otherwise
      // bind N names in each of its N queries (the bench saw the heap peak grow with N²).
      let q = db.selectFrom('accounts_account').selectAll().where('asset_id', '=', asset.id).orderBy('username');
      if (exec.job_type === 'change_secret') q = q.where('secret_type', '=', v.secret_type);
      // A permission's templates create theirs first and push those (templateAccounts.ts); push
      // now names its accounts (pushNow.ts); a plan names usernames.
      const made =
        exec.job_type === 'push_account' && (v as TemplateVersion).templates
          ? await createTemplateAccounts(app, exec, v as TemplateVersion, asset.id, log)
          : undefined;
      const only = made ?? ids;
      const accounts = (await q.execute()).filter((a) => (only ? only.has(a.id) : usernames.has(a.username)));
      let proto: HostProtocol | undefined;
      let refusal = '';
      try {
        if (accounts.length) proto = await protocolFor(app, lang, asset.id);
      } catch (e) {
        refusal = e instanceof NotApplicable ? e.message : (e as Error).message;
      }
      for (const account of accounts) {
        if (ctx.signal.aborted) return;
        let rec: RecordRow;
        if (!SAFE_USERNAME.test(account.username)) {
          const why = am(lang, 'username_invalid', { value: account.username });
          log(`[${name}] ${account.username}: failed: ${why}`);
          rec = await failedRecord(app, exec, account, name, why);
        } else if (!proto) {
          log(`[${name}] ${account.username}: failed: ${refusal}`);
          rec = await failedRecord(app, exec, account, name, refusal);
        } else if (exec.job_type === 'push_account')
          rec = await pushAccount(app, lang, proto, v, exec, account, name, log);
        else {
          try {
            rec = await changeAccount(app, { lang, proto, v, exec, account, assetName: name, ctx, log });
          } catch (e) {
            if (e instanceof Stopped) return;
            throw e;
          }
        }
        counts[rec.status === 'success' ? 'ok' : 'failed'] += 1;
      }
    });
    log('>>> Summary');
    log(`ok: ${counts.ok}`);
    log(`failed: ${counts.failed}`);
    await chain;
    if (ctx.signal.aborted) throw new Error(am(lang, 'stopped'));
    const status = counts.failed ? 'failed' : 'success';
    // The result to the plan's recipients by each backend of the notice type (site message, mail).
    if (exec.job_type === 'change_secret' && v.recipients?.length)
      await notify(
        { db, bus: app.deps.bus, settings: app.deps.settings, log: app.log },
        {
          type: 'automation_result',
          userIds: v.recipients,
          text: (l) => ({
            subject: am(l, 'notice_subject', { name: v.name, status: am(l, `status_${status}`) }),
            message: escapeHtml(am(l, 'notice_body', { ok: counts.ok, failed: counts.failed })),
          }),
        },
      );
    return { status, summary: counts };
  };
}

/** Settles every record an execution left `pending` or `changed` (the engine calls it when a run ended early). */
export function automationRecovery(app: FastifyInstance): ExecutionRecovery {
  return async (exec) => {
    const db = app.deps.database.db;
    const recs = await db
      .selectFrom('accounts_automationrecord')
      .selectAll()
      .where('execution_id', '=', exec.id)
      .where('status', 'in', ['pending', 'changed'])
      .execute();
    if (!recs.length) return;
    const lang = await langOf(app, exec.creator_id);
    for (const rec of recs) {
      try {
        const proto = await protocolFor(app, lang, rec.asset_id);
        const state = await settleRecord(app, lang, proto, rec, am(lang, 'stopped'), exec.created_by);
        app.log.warn({ execution: exec.id, record: rec.id, state }, 'automation record settled after the run ended');
      } catch (e) {
        app.log.error(
          { execution: exec.id, record: rec.id, err: (e as Error).message },
          'automation record not settled',
        );
      }
    }
  };
}
