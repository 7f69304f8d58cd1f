import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { f } from '../../resource/fields.ts';
import { actorOf } from '../../resource/audit.ts';
import type { Choice, ResourceCtx, ResourceDef, Row, WriteEvent } from '../../resource/types.ts';
import { ACCOUNT_MESSAGES as M, acm } from './accountMessages.ts';
import { baseAccountFields } from './accountFields.ts';
import { sealSecret } from './accountHooks.ts';
import { DEFAULT_PASSWORD_RULES, randomPassword, randomSshKey, type PasswordRules } from './secrets.ts';
import { PROTOCOLS } from '../assets/protocolDefaults.ts';

/**
 * `account-templates/`: a username and secret to create accounts from. A
 * random strategy generates the secret (a password from the rules, or a new Ed25519 key pair).
 * With `is_sync_account`, a new secret is written onto every account created from the template,
 * each keeping its former version in its history.
 */
const T = 'accounts_accounttemplate';
type Errors = Record<string, string[]>;

const STRATEGIES: Choice[] = [
  { value: 'specific', label: M.strategy_specific },
  { value: 'random', label: M.strategy_random },
];

/** Templates whose secret changed with `is_sync_account` set, to sync after the update. */
const syncWanted = new WeakSet<Row>();

function parseRules(v: unknown): PasswordRules | undefined {
  let o: unknown = v;
  if (typeof v === 'string') {
    try {
      o = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return undefined;
  const r = { ...DEFAULT_PASSWORD_RULES, ...(o as Partial<PasswordRules>) };
  if (!Number.isInteger(r.length) || r.length < 8 || r.length > 30) return undefined;
  for (const k of ['lowercase', 'uppercase', 'digit', 'symbol'] as const)
    if (typeof r[k] !== 'boolean') return undefined;
  return r;
}

async function validateTemplate(data: Row, ctx: ResourceCtx & { id?: string; before?: Row }) {
  const lang = ctx.req.lang;
  const before = ctx.before;
  const errors: Errors = {};
  const sync = data.is_sync_account === true;
  delete data.is_sync_account;
  const type = String(data.secret_type ?? before?.secret_type ?? 'password');
  const strategy = String(data.secret_strategy ?? before?.secret_strategy ?? 'specific');
  let rules = DEFAULT_PASSWORD_RULES;
  if (data.password_rules !== undefined) {
    const parsed = parseRules(data.password_rules);
    if (!parsed) return { password_rules: [acm(lang, 'password_rules_invalid')] };
    rules = parsed;
    data.password_rules = JSON.stringify(parsed);
  } else if (before) rules = parseRules(before.password_rules) ?? DEFAULT_PASSWORD_RULES;
  if (!before && !data.username) errors.username = [acm(lang, 'username_required')];
  if (before && data.su_from && data.su_from === before.id) errors.su_from = [acm(lang, 'template_su_from_self')];
  const given = typeof data.secret === 'string' && data.secret !== '';
  if (strategy === 'random' && !given) {
    if (type !== 'password' && type !== 'ssh_key') errors.secret_strategy = [acm(lang, 'template_random_type')];
    else if (
      !before ||
      data.secret_strategy !== undefined ||
      data.secret_type !== undefined ||
      data.password_rules !== undefined
    ) {
      data.secret = type === 'password' ? randomPassword(rules) : randomSshKey();
      data.passphrase = '';
    }
  }
  if (Object.keys(errors).length) return errors;
  const changing = typeof data.secret === 'string' && data.secret !== '';
  await sealSecret(ctx, data, before, errors, false);
  if (Object.keys(errors).length) return errors;
  if (changing && before && sync) syncWanted.add(data);
  return undefined;
}

/** Writes the template's new secret onto every account created from it, each with a history version. */
async function syncAccounts({ ctx, id, data }: WriteEvent): Promise<void> {
  if (!syncWanted.has(data)) return;
  const tpl = await ctx.db.selectFrom(T).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const accounts = await ctx.db
    .selectFrom('accounts_account')
    .select(['id', 'version'])
    .where('source', '=', 'template')
    .where('source_id', '=', id)
    .where('org_id', '=', tpl.org_id)
    .execute();
  const now = new Date().toISOString();
  const who = actorOf(ctx.req);
  for (const a of accounts) {
    const version = Number(a.version) + 1;
    await ctx.db
      .updateTable('accounts_account')
      .set({
        secret: tpl.secret,
        passphrase: tpl.passphrase,
        secret_type: tpl.secret_type,
        spec_info: tpl.spec_info,
        version,
        date_updated: now,
        updated_by: who,
      })
      .where('id', '=', a.id)
      .execute();
    await ctx.db
      .insertInto('accounts_accounthistory')
      .values({
        id: randomUUID(),
        account_id: a.id,
        version,
        secret_type: tpl.secret_type,
        secret: tpl.secret,
        passphrase: tpl.passphrase,
        history_date: now,
        history_user: who,
      })
      .execute();
  }
}

export const templateResource: ResourceDef = {
  model: 'accounttemplate',
  app: 'accounts',
  url: '/api/v1/accounts/account-templates/',
  table: T,
  label: M.model_template,
  orgScoped: true,
  fields: {
    ...baseAccountFields(),
    name: f.string(M.field_name, { required: true, unique: true, order: true, filter: true, search: true }),
    username: f.string(M.field_username, { order: true, filter: true, search: true }),
    secret_strategy: f.choice(M.field_secret_strategy, STRATEGIES, { default: 'specific' }),
    password_rules: f.json(M.field_password_rules, { default: DEFAULT_PASSWORD_RULES, noExport: true }),
    auto_push: f.bool(M.field_auto_push, { default: false }),
    push_params: f.json(M.field_push_params, { default: {}, noExport: true }),
    platforms: f.m2m(M.field_platforms, {
      table: 'assets_platform',
      through: {
        table: 'accounts_accounttemplate_platforms',
        left: 'accounttemplate_id',
        right: 'platform_id',
      },
    }),
    is_sync_account: f.bool(M.field_is_sync_account, { writeOnly: true, column: false }),
    su_from: f.fk(
      M.field_su_from,
      {
        table: T,
        output: (r) => ({ id: r.id, name: r.name, username: r.username }),
        choosable: (q, ctx) => q.where(sql.ref(`${T}.org_id`), '=', ctx.req.org.id),
      },
      { default: null },
    ),
  },
  fieldsMini: ['id', 'name', 'username'],
  defaultOrder: ['name'],
  extraFilters: {
    // A comma list of protocols: templates whose secret type one of them accepts.
    protocols: (q, value) => {
      const types = new Set(
        value
          .split(',')
          .map((p) => p.trim())
          .flatMap((p) => PROTOCOLS[p]?.secret_types ?? []),
      );
      return q.where(sql.ref(`${T}.secret_type`), 'in', types.size ? [...types] : ['']);
    },
  },
  hooks: {
    validate: validateTemplate,
    beforeInsert(values) {
      values.spec_info ??= '{}';
    },
    afterUpdate: syncAccounts,
  },
};
