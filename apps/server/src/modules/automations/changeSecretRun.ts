import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso } from '../../platform/db/schema.ts';
import { fingerprintOf, randomPassword, randomSshKey, DEFAULT_PASSWORD_RULES } from '../accounts/secrets.ts';
import type { ExecutionContext, ExecutionRow } from '../ops/engine/engine.ts';
import { am } from './automationText.ts';
import type { AutomationVersion } from './automationExecutions.ts';
import { NotApplicable, publicKeyOf, type HostProtocol, type Secret } from './hostProtocols.ts';
import { promoteSecret } from './vaultWrite.ts';

/**
 * Changing one account's secret without ever losing it (issue 30, item 1; docs/automations.md):
 *
 * 1. the new secret is generated and saved, sealed, in the account's record (`pending`) before
 *    anything reaches the host; the record also keeps the old one;
 * 2. the host is changed with the asset's privileged account; when it accepts, the record is
 *    `changed`;
 * 3. a fresh login with the new secret verifies it; only then does it become the account's secret
 *    (a new version, the old one staying in the history) and the record `success`, state `new`;
 * 4. when the change or the verification fails, or the run ends before 3 (stopped, the instance
 *    died: the engine's recovery calls `settleRecord` for every record left `pending`/`changed`),
 *    both secrets are tried: the one that opens the host is the account's (the new one promoted
 *    as in 3, or the old one kept), and the record says which (`new`, `old`, or `unknown` when
 *    neither does: then the vault keeps the old one and the record both, sealed).
 */
export type RecordRow = Selectable<DB['accounts_automationrecord']>;
type AccountRow = Selectable<DB['accounts_account']>;

/** Test-only fault points (the "kill between change and verify" test); none in production. */
export interface AutomationFaults {
  afterChange?: (recordId: string, signal: AbortSignal) => Promise<void>;
}
const faults = new WeakMap<FastifyInstance, AutomationFaults>();
export function setAutomationFaults(app: FastifyInstance, f: AutomationFaults): void {
  faults.set(app, f);
}

export class Stopped extends Error {}

function nextSecret(v: AutomationVersion, open: (s: string | null) => string): Secret {
  if (v.secret_strategy === 'specific') {
    const secret = open(v.secret);
    return v.secret_type === 'ssh_key'
      ? { type: 'ssh_key', secret, ...(v.passphrase ? { passphrase: open(v.passphrase) } : {}) }
      : { type: 'password', secret };
  }
  if (v.secret_type === 'ssh_key') return { type: 'ssh_key', secret: randomSshKey() };
  return { type: 'password', secret: randomPassword({ ...DEFAULT_PASSWORD_RULES, ...v.password_rules }) };
}

export function secretOf(
  app: FastifyInstance,
  type: string,
  secret: string | null,
  passphrase: string | null,
): Secret | undefined {
  if (!secret || (type !== 'password' && type !== 'ssh_key')) return undefined;
  const box = app.deps.secretBox;
  return {
    type,
    secret: box.decrypt(secret),
    ...(passphrase ? { passphrase: box.decrypt(passphrase) } : {}),
  };
}

function specInfoOf(s: Secret): string {
  if (s.type !== 'ssh_key') return '{}';
  const line = publicKeyOf(s).split(' ');
  return JSON.stringify({ ssh_key_fingerprint: fingerprintOf(Buffer.from(line[1]!, 'base64')) });
}

async function finishRecord(app: FastifyInstance, id: string, set: Partial<RecordRow>): Promise<void> {
  await app.deps.database.db
    .updateTable('accounts_automationrecord')
    .set({ ...set, date_finished: nowIso() })
    .where('id', '=', id)
    .execute();
}

/**
 * Finds which secret opens the host and makes the vault and the record say so (step 4). `why` is
 * what went wrong before (empty when recovering a run that ended early).
 */
export async function settleRecord(
  app: FastifyInstance,
  lang: Language,
  proto: HostProtocol,
  rec: RecordRow,
  why: string,
  who: string,
): Promise<'new' | 'old' | 'unknown'> {
  const next = secretOf(app, rec.secret_type, rec.new_secret, rec.new_passphrase);
  const old = secretOf(app, rec.secret_type, rec.old_secret, rec.old_passphrase);
  const newErr = next ? await proto.login(rec.username, next) : 'no new secret';
  if (!newErr && next) {
    await promote(app, rec, next, who);
    // The host has the new secret and so does the vault: the account is fine, whatever came before.
    await finishRecord(app, rec.id, { status: 'success', state: 'new', error: why });
    return 'new';
  }
  const oldErr = old ? await proto.login(rec.username, old) : 'no old secret';
  if (!oldErr) {
    await finishRecord(app, rec.id, {
      status: 'failed',
      state: 'old',
      error: `${why}${why ? '. ' : ''}${am(lang, 'settled_old')}`,
    });
    return 'old';
  }
  await finishRecord(app, rec.id, {
    status: 'failed',
    state: 'unknown',
    error: `${why}${why ? '. ' : ''}${am(lang, 'settled_unknown')} (new: ${newErr}; old: ${oldErr})`,
  });
  return 'unknown';
}

async function promote(app: FastifyInstance, rec: RecordRow, next: Secret, who: string): Promise<void> {
  if (!rec.account_id) return;
  await promoteSecret(
    app.deps.database.db,
    rec.account_id,
    {
      secret_type: rec.secret_type,
      secret: rec.new_secret!,
      passphrase: rec.new_passphrase,
      spec_info: specInfoOf(next),
    },
    who,
  );
}

/** Steps 1 to 3 for one account; step 4 when something fails. Throws Stopped when the run stops. */
export async function changeAccount(
  app: FastifyInstance,
  o: {
    lang: Language;
    proto: HostProtocol;
    v: AutomationVersion;
    exec: ExecutionRow;
    account: AccountRow;
    assetName: string;
    ctx: ExecutionContext;
    log: (line: string) => void;
  },
): Promise<RecordRow> {
  const { lang, proto, v, exec, account, ctx } = o;
  const db = app.deps.database.db;
  const box = app.deps.secretBox;
  const next = nextSecret(v, (s) => (s ? box.decrypt(s) : ''));
  const label = `[${o.assetName}] ${account.username}`;
  const rec: RecordRow = {
    id: randomUUID(),
    type: 'change_secret',
    execution_id: exec.id,
    automation_id: exec.job_id,
    asset_id: account.asset_id,
    asset_name: o.assetName,
    account_id: account.id,
    account_name: account.name,
    username: account.username,
    status: 'pending',
    state: '',
    secret_type: next.type,
    new_secret: box.encrypt(next.secret),
    new_passphrase: next.passphrase ? box.encrypt(next.passphrase) : null,
    old_secret: account.secret_type === next.type ? account.secret : null,
    old_passphrase: account.secret_type === next.type ? account.passphrase : null,
    old_version: Number(account.version),
    error: '',
    date_started: nowIso(),
    date_finished: null,
    org_id: exec.org_id,
  };
  // 1. Saved before the host is touched.
  await db.insertInto('accounts_automationrecord').values(rec).execute();
  if (ctx.signal.aborted) throw new Stopped();
  o.log(`${label}: changing the ${next.type === 'password' ? 'password' : `SSH key (${v.ssh_key_change_strategy})`}`);
  try {
    await proto.change(account.username, next, v.ssh_key_change_strategy);
  } catch (e) {
    if (e instanceof NotApplicable) {
      await finishRecord(app, rec.id, { status: 'failed', state: 'old', error: e.message });
      o.log(`${label}: failed: ${e.message}`);
      return { ...rec, status: 'failed', state: 'old', error: e.message };
    }
    const why = am(lang, 'change_failed', { error: (e as Error).message });
    const state = await settleRecord(app, lang, proto, rec, why, exec.created_by);
    o.log(`${label}: ${why}; ${state} secret works`);
    return await db
      .selectFrom('accounts_automationrecord')
      .selectAll()
      .where('id', '=', rec.id)
      .executeTakeFirstOrThrow();
  }
  // 2. The host took it.
  await db.updateTable('accounts_automationrecord').set({ status: 'changed' }).where('id', '=', rec.id).execute();
  await faults.get(app)?.afterChange?.(rec.id, ctx.signal);
  if (ctx.signal.aborted) throw new Stopped();
  // 3. A fresh login with the new secret, then the vault.
  const err = await proto.login(account.username, next);
  if (!err) {
    await promote(app, rec, next, exec.created_by);
    await finishRecord(app, rec.id, { status: 'success', state: 'new' });
    o.log(`${label}: changed and verified`);
    return { ...rec, status: 'success', state: 'new' };
  }
  const why = am(lang, 'changed_then', { what: am(lang, 'verify_failed', { error: err }) });
  const state = await settleRecord(app, lang, proto, rec, why, exec.created_by);
  o.log(`${label}: ${why}; ${state} secret works`);
  return db.selectFrom('accounts_automationrecord').selectAll().where('id', '=', rec.id).executeTakeFirstOrThrow();
}
