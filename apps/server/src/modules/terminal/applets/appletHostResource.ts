import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { APPLET_HOST_ACCOUNTS_MAX, APPLET_HOST_DEPLOY_OPTIONS, SYSTEM_ORG_ID } from '@gatehouse/contract';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { f } from '../../../resource/fields.ts';
import type { FieldDef, ResourceCtx, ResourceDef, Row, WriteEvent } from '../../../resource/types.ts';
import { assetResource } from '../../assets/assetResource.ts';
import { AM } from './appletMessages.ts';

/**
 * `terminal/applet-hosts/` (`terminal.*_applethost`): assets of the RemoteAppHost platform, written
 * through the asset declaration (assets/assetResource.ts: protocols, accounts, nodes) plus their own
 * columns in `terminal_applethost`: the deploy options (checked against the contract's
 * APPLET_HOST_DEPLOY_OPTIONS), whether to create accounts for users and how many shared ones.
 * As in the original (`tmp_to_builtin_org(system=1)`), applet hosts live in the system-setting
 * organisation whatever org the caller is in: `inSystemOrg` switches the request's org for these
 * routes after its permission was checked (the permissions are system-only).
 */
export const APPLET_HOSTS_URL = '/api/v1/terminal/applet-hosts/';
const T = 'assets_asset';
const HOST_RE = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})?$|^[0-9a-fA-F:.]{2,45}$/;

export type DeployOptions = Record<string, string | number | boolean>;

/** The options with their defaults (CORE_HOST: the site URL). */
export function deployDefaults(siteUrl: string): DeployOptions {
  return Object.fromEntries(
    APPLET_HOST_DEPLOY_OPTIONS.map((o) => [o.name, o.name === 'CORE_HOST' ? siteUrl : o.default]),
  );
}

/** Checks the options given (unknown names refused); returns them or a message. */
function checkOptions(v: unknown, ctx: ResourceCtx): { value?: unknown; error?: string } {
  const lang = ctx.req.lang;
  let given = v;
  if (typeof v === 'string') {
    try {
      given = JSON.parse(v);
    } catch {
      return { error: tr(lang, AM.deploy_option, { name: '', reason: 'JSON' }) };
    }
  }
  if (!given || typeof given !== 'object' || Array.isArray(given))
    return { error: tr(lang, AM.deploy_option, { name: '', reason: '{}' }) };
  const out: DeployOptions = {};
  for (const [name, value] of Object.entries(given as Row)) {
    const o = APPLET_HOST_DEPLOY_OPTIONS.find((x) => x.name === name);
    const bad = (reason: string) => ({ error: tr(lang, AM.deploy_option, { name: name.slice(0, 40), reason }) });
    if (!o) return bad('?');
    if (o.kind === 'bool') {
      if (typeof value !== 'boolean') return bad(tr(lang, AM.reason_bool));
      out[name] = value;
    } else if (o.kind === 'int' || o.kind === 'choice') {
      const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) return bad(String(o.min ?? 0));
      if (o.choices && !o.choices.some((c) => c.value === n))
        return bad(tr(lang, AM.reason_choice, { choices: o.choices.map((c) => c.value).join(', ') }));
      if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) return bad(`${o.min}–${o.max}`);
      out[name] = n;
    } else {
      const s = typeof value === 'string' ? value.trim() : '';
      if (s.length > 1024) return bad(tr(lang, AM.reason_length, { max: 1024 }));
      if (o.kind === 'url' && !/^https?:\/\/[^\s/?#]+(\/[^\s]*)?$/.test(s)) return bad('http(s)://…');
      if (o.kind === 'host' && !HOST_RE.test(s)) return bad(tr(lang, AM.reason_text));
      out[name] = s;
    }
  }
  return { value: out };
}

const remoteAppPlatform = (ctx: ResourceCtx) =>
  ctx.db.selectFrom('assets_platform').select('id').where('name', '=', 'RemoteAppHost');

async function writeHostRow(e: WriteEvent): Promise<void> {
  const { ctx, id, data } = e;
  const stored = await ctx.db
    .selectFrom('terminal_applethost')
    .selectAll()
    .where('asset_id', '=', id)
    .executeTakeFirst();
  const siteUrl = String(await ctx.req.server.deps.settings.get('SITE_URL'));
  const options = {
    ...deployDefaults(siteUrl),
    ...(stored ? (JSON.parse(stored.deploy_options) as DeployOptions) : {}),
    ...((data.deploy_options as DeployOptions | undefined) ?? {}),
  };
  const values = {
    deploy_options: JSON.stringify(options),
    auto_create_accounts:
      data.auto_create_accounts === undefined
        ? stored
          ? toBool(stored.auto_create_accounts)
          : true
        : Boolean(data.auto_create_accounts),
    accounts_create_amount:
      data.accounts_create_amount === undefined
        ? (stored?.accounts_create_amount ?? 100)
        : Number(data.accounts_create_amount),
  };
  if (stored) await ctx.db.updateTable('terminal_applethost').set(values).where('asset_id', '=', id).execute();
  else
    await ctx.db
      .insertInto('terminal_applethost')
      .values({ asset_id: id, ...values, inited: false, date_inited: null, date_synced: null })
      .execute();
}

function appletHostDef(): ResourceDef {
  const base = assetResource({
    model: 'applethost',
    url: APPLET_HOSTS_URL,
    label: AM.model_applethost,
    category: 'host',
  });
  const own: Record<string, FieldDef> = {
    deploy_options: f.json(AM.field_deploy_options, { column: false, parse: async (v, ctx) => checkOptions(v, ctx) }),
    auto_create_accounts: f.bool(AM.field_auto_create_accounts, { column: false, default: true }),
    accounts_create_amount: f.int(AM.field_accounts_create_amount, {
      column: false,
      default: 100,
      minValue: 0,
      maxValue: APPLET_HOST_ACCOUNTS_MAX,
    }),
    load: f.computed('labeled_choice', AM.field_load, (r, ctx) => ({
      value: 'offline',
      label: tr(ctx.req.lang, AM.load_offline),
    })),
    inited: f.computed('boolean', AM.field_inited, (r) => toBool(r.__host?.inited)),
    date_synced: f.computed('datetime', AM.field_date_synced, (r) => r.__host?.date_synced ?? null),
  };
  const { comment, created_by, date_created, date_updated, ...rest } = base.fields;
  return {
    ...base,
    app: 'terminal',
    permModel: 'applethost',
    fields: {
      ...rest,
      // Chosen by the server: the RemoteAppHost platform.
      platform: { ...rest.platform!, required: false },
      ...own,
      comment: comment!,
      created_by: created_by!,
      date_created: date_created!,
      date_updated: date_updated!,
    },
    scope: (q, ctx) => base.scope!(q, ctx).where(sql.ref(`${T}.platform_id`), 'in', remoteAppPlatform(ctx)),
    async prepare(rows, ctx) {
      await base.prepare!(rows, ctx);
      if (!rows.length) return;
      const hosts = await ctx.db
        .selectFrom('terminal_applethost')
        .selectAll()
        .where(
          'asset_id',
          'in',
          rows.map((r) => String(r.id)),
        )
        .execute();
      const siteUrl = String(await ctx.req.server.deps.settings.get('SITE_URL'));
      for (const r of rows) {
        const h = hosts.find((x) => x.asset_id === r.id);
        r.__host = h;
        r.deploy_options = JSON.stringify({
          ...deployDefaults(siteUrl),
          ...(h ? (JSON.parse(h.deploy_options) as DeployOptions) : {}),
        });
        r.auto_create_accounts = h ? toBool(h.auto_create_accounts) : true;
        r.accounts_create_amount = h?.accounts_create_amount ?? 100;
      }
    },
    hooks: {
      ...base.hooks,
      async validate(data, ctx) {
        if (!ctx.before) {
          const p = await remoteAppPlatform(ctx).executeTakeFirst();
          if (!p) return { platform: [tr(ctx.req.lang, AM.platform_missing)] };
          data.platform = p.id;
        } else delete data.platform;
        return base.hooks!.validate!(data, ctx);
      },
      async afterCreate(e) {
        await base.hooks!.afterCreate!(e);
        await writeHostRow(e);
      },
      async afterUpdate(e) {
        await base.hooks!.afterUpdate!(e);
        await writeHostRow(e);
      },
    },
  };
}

export const appletHostResource = appletHostDef();

/** The applet hosts' routes work in the system-setting organisation (after the permission check). */
export function inSystemOrg(app: FastifyInstance, prefixes: string[]): void {
  app.addHook('preHandler', async (req) => {
    if (!prefixes.some((p) => req.url.startsWith(p))) return;
    req.org = { id: SYSTEM_ORG_ID, name: 'SYSTEM', is_root: false, is_default: false };
  });
}
