import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import type { ResourceCtx, Row } from '../../resource/types.ts';
import { checkSecret } from '../accounts/secrets.ts';
import { SYMBOLS } from '../accounts/secrets.ts';
import { crontabError } from '../jobs/jobValidate.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import { am } from './automationText.ts';
import type { AutomationType } from './automationExecutions.ts';
import { SAFE_USERNAME } from './hostProtocols.ts';

/**
 * The checks of an automation as a whole, before anything is saved (a refused plan leaves no row):
 * the name free for its type in the org, the usernames plain (they reach hosts and databases),
 * assets or nodes, a five-field crontab or an interval of 1 to 65535 hours, password rules of length
 * 6 to 30 with symbols from the set passwords can carry, and a specific secret that parses for its
 * type. The secret and passphrase are sealed here, right after their check.
 */
const list = (v: unknown): unknown[] => {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [];
  try {
    const x = JSON.parse(v) as unknown;
    return Array.isArray(x) ? x : [];
  } catch {
    return [];
  }
};
const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
const obj = (v: unknown): Record<string, unknown> | undefined => {
  const x =
    typeof v === 'string'
      ? (() => {
          try {
            return JSON.parse(v) as unknown;
          } catch {
            return undefined;
          }
        })()
      : v;
  return x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
};

export async function validateAutomation(
  type: AutomationType,
  data: Row,
  ctx: ResourceCtx & { id?: string; before?: Row },
): Promise<Record<string, string[]> | undefined> {
  const lang = ctx.req.lang;
  const j: Row = { ...(ctx.before ?? {}), ...data };
  const errors: Record<string, string[]> = {};
  if ('name' in data) {
    let q = ctx.db
      .selectFrom('accounts_automation')
      .select('id')
      .where('org_id', '=', ctx.req.org.id)
      .where('type', '=', type)
      .where('name', '=', String(data.name));
    if (ctx.id) q = q.where('id', '!=', ctx.id);
    if (await q.executeTakeFirst()) errors.name = [am(lang, 'name_taken', { name: String(data.name) })];
  }
  if (type !== 'gather_accounts' && ('accounts' in data || !ctx.before)) {
    const names = list(data.accounts).map(String);
    if (!names.length) errors.accounts = [am(lang, 'accounts_required')];
    const bad = names.filter((n) => !SAFE_USERNAME.test(n));
    if (bad.length) errors.accounts = [am(lang, 'username_invalid', { value: bad.join(', ') })];
  }
  if (!ctx.before || 'assets' in data || 'nodes' in data) {
    const assets = 'assets' in data ? list(data.assets) : list(j.assets);
    const nodes = 'nodes' in data ? list(data.nodes) : list(j.nodes);
    // On an update that names one of the two, the other stays as stored.
    const stored =
      ctx.before && (!('assets' in data) || !('nodes' in data))
        ? await ctx.db
            .selectFrom(!('assets' in data) ? 'accounts_automation_assets' : 'accounts_automation_nodes')
            .select('automation_id')
            .where('automation_id', '=', String(ctx.id))
            .execute()
        : [];
    if (!assets.length && !nodes.length && !stored.length) errors.assets = [am(lang, 'assets_required')];
  }
  const cron = crontabError(lang, String(j.crontab ?? ''));
  if (cron) errors.crontab = [cron];
  if ('interval' in data && data.interval !== null) {
    const n = Number(data.interval);
    if (!Number.isInteger(n) || n < 1 || n > 65535) errors.interval = [am(lang, 'interval_range')];
  }
  if (!errors.interval && truthy(j.is_periodic) && !String(j.crontab ?? '').trim() && !(Number(j.interval ?? 24) > 0))
    errors.interval = [am(lang, 'periodic_needs_schedule')];
  if (type === 'gather_accounts') return Object.keys(errors).length ? errors : undefined;
  if ('recipients' in data) {
    const ids = [...new Set(list(data.recipients).map(String))].slice(0, 1000);
    const bad = await strangersOf(ctx, ids);
    if (bad.length) errors.recipients = [am(lang, 'recipients_invalid', { ids: bad.join(', ') })];
    else data.recipients = JSON.stringify(ids);
  }

  if ('password_rules' in data && data.password_rules !== null) {
    const rules = obj(data.password_rules);
    if (!rules) errors.password_rules = [am(lang, 'rules_invalid')];
    else {
      const length = Number(rules.length ?? 16);
      const symbols = String(rules.symbol_set ?? '');
      const wrong = [...new Set([...symbols].filter((c) => !SYMBOLS.includes(c)))];
      if (!Number.isInteger(length) || length < 6 || length > 30) errors.password_rules = [am(lang, 'rules_length')];
      else if (wrong.length) errors.password_rules = [am(lang, 'rules_symbols', { chars: wrong.join(' ') })];
      else data.password_rules = JSON.stringify({ ...rules, length });
    }
  }
  const secretType = String(j.secret_type ?? 'password');
  const strategy = String(j.secret_strategy ?? 'specific');
  const given = typeof data.secret === 'string' && data.secret !== '';
  if (!given) delete data.secret;
  if (typeof data.passphrase !== 'string' || data.passphrase === '') delete data.passphrase;
  if (strategy === 'specific' && !given && !ctx.before?.secret) errors.secret = [am(lang, 'secret_required')];
  if (given) {
    const checked = checkSecret(lang, secretType, String(data.secret), data.passphrase as string | undefined);
    if ('error' in checked) errors[checked.field] = [checked.error];
  }
  if (Object.keys(errors).length) return errors;
  const box = ctx.req.server.deps.secretBox;
  if (given) data.secret = box.encrypt(String(data.secret));
  if (typeof data.passphrase === 'string') data.passphrase = box.encrypt(data.passphrase);
  return undefined;
}

/** Of `ids`, those who may not hear of this org's plans: neither members of it nor superusers. */
export async function strangersOf(ctx: ResourceCtx, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const known = new Set(
    (
      await ctx.db
        .selectFrom('users_user')
        .select('id')
        .where('id', 'in', ids)
        .where((eb) =>
          eb.or([
            eb('id', 'in', orgMemberIds(ctx.db, ctx.req.org.id)),
            eb(
              'id',
              'in',
              ctx.db
                .selectFrom('rbac_rolebinding')
                .select('user_id')
                .where('scope', '=', 'system')
                .where('role_id', '=', BUILTIN_ROLE_IDS.SystemAdmin),
            ),
          ]),
        )
        .execute()
    ).map((r) => r.id),
  );
  return ids.filter((id) => !known.has(id));
}
