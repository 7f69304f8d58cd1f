import type { Language } from '@gatehouse/contract';
import type { ResourceCtx, Row } from '../../resource/types.ts';
import { isCronError, parseCrontab } from '../ops/engine/cron.ts';
import { connectableAccounts, grantedAssetsOf, pickAccount } from './jobAssets.ts';
import { jm } from './jobMessages.ts';
import { playbookEntryExists } from '../ops/playbooks/playbookFiles.ts';

/**
 * The checks of a job as a whole, before anything is saved (a refused job leaves no row and no
 * execution): its nodes merged with its assets through the user's grants must leave at least one
 * asset, a command job needs its command and a run-as user, run-as must find an account on at
 * least one asset, and a schedule needs a five-field crontab or an interval of more than 0 hours.
 */
const list = (v: unknown): string[] => {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== 'string') return [];
  try {
    const x = JSON.parse(v) as unknown;
    return Array.isArray(x) ? x.map(String) : [];
  } catch {
    return [];
  }
};

export function crontabError(lang: Language, crontab: string): string | undefined {
  if (!crontab.trim()) return undefined;
  const c = parseCrontab(crontab);
  if (!isCronError(c)) return undefined;
  return c.error === 'fields'
    ? jm(lang, 'crontab_fields', { count: c.count })
    : jm(lang, 'crontab_field', { field: c.field, value: c.value });
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

export async function validateJob(
  data: Row,
  ctx: ResourceCtx & { id?: string; before?: Row },
): Promise<Record<string, string[]> | undefined> {
  const lang = ctx.req.lang;
  const j: Row = { ...(ctx.before ?? {}), ...data };
  const errors: Record<string, string[]> = {};
  if ((j.type ?? 'adhoc') === 'playbook') {
    const id = String(j.playbook ?? j.playbook_id ?? '');
    const own = id
      ? await ctx.db
          .selectFrom('ops_playbook')
          .select('id')
          .where('id', '=', id)
          .where('creator_id', '=', ctx.req.user!.id)
          .where('org_id', '=', ctx.req.org.id)
          .executeTakeFirst()
      : undefined;
    if (!own) errors.playbook = [jm(lang, 'playbook_required')];
    else if (!playbookEntryExists(ctx.req.server.deps.config.dataDir, own.id))
      errors.playbook = [jm(lang, 'playbook_no_entry')];
  } else if (!String(j.args ?? '').trim()) errors.args = [jm(lang, 'no_args')];
  const runas = String(j.runas ?? 'root').trim();
  if (!runas) errors.runas = [jm(lang, 'no_runas')];
  const cron = crontabError(lang, String(j.crontab ?? ''));
  if (cron) errors.crontab = [cron];
  const interval = j.interval === undefined || j.interval === null ? 24 : Number(j.interval);
  if ('interval' in data && !(interval > 0)) errors.interval = [jm(lang, 'interval_positive')];
  else if (truthy(j.is_periodic) && !String(j.crontab ?? '').trim() && !(interval > 0))
    errors.interval = [jm(lang, 'periodic_needs_schedule')];
  if ('assets' in data || 'nodes' in data || !ctx.before) {
    const merged = await grantedAssetsOf(ctx.req, list(j.assets), list(j.nodes));
    if (!merged.length) errors.assets = [jm(lang, 'no_assets')];
    else data.assets = JSON.stringify(merged);
    if (merged.length && runas && !errors.runas) {
      const g = { db: ctx.db, dialect: ctx.req.server.deps.database.dialect };
      const policy = String(j.runas_policy ?? 'skip');
      let found = false;
      for (const id of merged) {
        if (pickAccount(await connectableAccounts(g, ctx.req.user!.id, id), runas, policy)) {
          found = true;
          break;
        }
      }
      if (!found) errors.runas = [jm(lang, 'no_account_matches', { runas, policy })];
    }
  }
  return Object.keys(errors).length ? errors : undefined;
}
