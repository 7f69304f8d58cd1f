import { ApiError } from '../../http/errors.ts';
import { f, L } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { rt } from '../../resource/messages.ts';
import { decodeSecretField } from '../../resource/secretFields.ts';
import { openSecrets, sealSecrets } from './accountSecrets.ts';
import { CM, cm, type CloudMessage } from './cloudMessages.ts';
import { PROVIDERS, providerOf } from './providers/index.ts';

/**
 * Cloud accounts (`/api/v1/xpack/cloud/accounts/`, console reference §3.12): a provider and its
 * `attrs`. The provider's secret attributes are sealed into `secret` (secret box) and never answered;
 * on update a secret left out keeps its stored value. `?provider=` on create names the provider too.
 */
const parseObject = (v: unknown): Record<string, unknown> => {
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  try {
    const o = JSON.parse(String(v ?? '{}')) as unknown;
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

async function splitAttrs(
  data: Row,
  ctx: ResourceCtx & { before?: Row },
): Promise<Record<string, string[]> | undefined> {
  const lang = ctx.req.lang;
  const before = ctx.before;
  delete data.secret;
  const query = (ctx.req.query ?? {}) as Record<string, unknown>;
  if (!before && !data.provider && typeof query.provider === 'string') data.provider = query.provider;
  // The provider of an account is fixed at its creation.
  if (before) data.provider = before.provider;
  const name = String(data.provider ?? before?.provider ?? '');
  const provider = providerOf(name);
  if (!provider) return { provider: [cm(lang, 'unknown_provider', { provider: name })] };
  if (data.attrs === undefined && before) return undefined;
  const given = parseObject(data.attrs);
  const plain: Record<string, unknown> = { ...(before ? parseObject(before.attrs) : {}) };
  for (const k of provider.attrs) if (k in given) plain[k] = given[k];
  const stored = before ? openSecrets(ctx.req.server.deps.secretBox, String(before.secret ?? '')) : {};
  const secrets: Record<string, string> = {};
  for (const k of provider.secretAttrs) {
    const v = given[k];
    // The console sends secret attributes transport-encrypted (as the vault's secrets); API clients in clear.
    if (typeof v === 'string' && v) secrets[k] = String(await decodeSecretField(ctx.req, v, `attrs.${k}`));
    else if (stored[k]) secrets[k] = stored[k];
    else return { [`attrs.${k}`]: [cm(lang, 'secret_required', { field: k })] };
  }
  const problem = provider.check(plain, secrets);
  if (problem) return { [`attrs.${problem.field}`]: [cm(lang, problem.key, problem.params)] };
  // A scan through a domain's gateway: a domain of the account's own organisation.
  if (plain.domain) {
    const org = String(before?.org_id ?? ctx.req.org.id);
    const found = await ctx.db
      .selectFrom('assets_domain')
      .select('id')
      .where('id', '=', String(plain.domain))
      .where('org_id', '=', org)
      .executeTakeFirst();
    if (!found) return { 'attrs.domain': [cm(lang, 'lan_bad_domain', { domain: String(plain.domain) })] };
  }
  data.attrs = JSON.stringify(plain);
  data.secret = sealSecrets(ctx.req.server.deps.secretBox, secrets);
  // New credentials are untested.
  data.validity = false;
  return undefined;
}

export const accountResource: ResourceDef = {
  model: 'account',
  app: 'xpack',
  url: '/api/v1/xpack/cloud/accounts/',
  table: 'cloud_account',
  label: CM.model_account,
  orgScoped: true,
  defaultOrder: ['name'],
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, search: true, order: true, filter: true }),
    provider: f.choice(
      CM.f_provider,
      Object.keys(PROVIDERS).map((p) => ({
        value: p,
        label: CM[`provider_${p}` as CloudMessage] ?? { en: p, zh: p, ja: p },
      })),
      { filter: true },
    ),
    attrs: f.json(CM.f_attrs, { default: {}, out: (v) => parseObject(v) }),
    // Set by the validate hook only (the sealed secret attributes); never answered.
    secret: { type: 'string', label: CM.f_attrs, writeOnly: true, noExport: true },
    validity: f.bool(CM.f_validity, { readOnly: true, filter: true }),
    date_last_test: f.datetime(CM.f_date_last_test, { readOnly: true }),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  hooks: {
    validate: splitAttrs,
    async beforeDelete(row, ctx) {
      await refuseUsed(ctx, [String(row.id)]);
    },
    async beforeBulkDelete(ids, ctx) {
      await refuseUsed(ctx, ids);
    },
  },
};

async function refuseUsed(ctx: ResourceCtx, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const used = await ctx.db.selectFrom('cloud_synctask').select('id').where('account_id', 'in', ids).executeTakeFirst();
  if (used) throw new ApiError(400, { detail: rt(ctx.req.lang, 'referenced'), code: 'referenced' });
}
