import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { toBool } from '../../platform/db/schema.ts';
import { actorOf } from '../../resource/audit.ts';
import { updateObject } from '../../resource/write.ts';
import type { ResourceCtx, ResourceDef, Row, WriteEvent } from '../../resource/types.ts';
import { requirePerm } from '../../http/permissions.ts';
import { acm } from './accountMessages.ts';
import { pushAccounts } from './pushPort.ts';
import { checkSecret, seal, unseal } from './secrets.ts';

/**
 * What is special about writing an account: the secret is checked for its type and sealed, every
 * secret written is kept as a numbered version in accounts_accounthistory, the name is unique per
 * asset (defaulting to the username, suffixed when taken), the username never changes, su_from
 * stays on the asset and only where the platform allows su, and a duplicate username follows
 * `on_invalid` (error, skip or update the existing account).
 */
type Errors = Record<string, string[]>;

export interface PlatformInfo {
  id: number;
  name: string;
  su_enabled: boolean;
  domain_enabled: boolean;
}

/** Platforms of the assets of the rows being serialised now, per request. */
const platformsByAsset = new WeakMap<FastifyRequest, Map<string, PlatformInfo>>();
/** Data of a create whose username already exists on the asset, with what to do about it. */
const duplicates = new WeakMap<Row, { existing: Row; policy: 'skip' | 'update' }>();
/** Data that carries a new secret (a new version to keep in the history). */
const secretWritten = new WeakSet<Row>();

export async function loadPlatforms(ctx: ResourceCtx, assetIds: string[]): Promise<Map<string, PlatformInfo>> {
  const out = new Map<string, PlatformInfo>();
  const ids = [...new Set(assetIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await ctx.db
      .selectFrom('assets_asset as a')
      .innerJoin('assets_platform as p', 'p.id', 'a.platform_id')
      .select(['a.id as asset_id', 'p.id', 'p.name', 'p.su_enabled', 'p.domain_enabled'])
      .where('a.id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows)
      out.set(r.asset_id, {
        id: r.id,
        name: r.name,
        su_enabled: toBool(r.su_enabled),
        domain_enabled: toBool(r.domain_enabled),
      });
  }
  return out;
}

/** Only the rows being serialised now: an export serialises batch after batch and must not keep them all. */
export async function preparePlatforms(rows: Row[], ctx: ResourceCtx): Promise<void> {
  platformsByAsset.set(
    ctx.req,
    await loadPlatforms(
      ctx,
      rows.map((r) => String(r.asset_id)),
    ),
  );
}

export function platformOfAsset(ctx: ResourceCtx, assetId: string): PlatformInfo | undefined {
  return platformsByAsset.get(ctx.req)?.get(assetId);
}

/** Checks and seals `data.secret` (and its passphrase) in place; sets spec_info and the next version. */
export async function sealSecret(
  ctx: ResourceCtx,
  data: Row,
  before: Row | undefined,
  errors: Errors,
  versioned = true,
): Promise<void> {
  const lang = ctx.req.lang;
  const type = String(data.secret_type ?? before?.secret_type ?? 'password');
  if (typeof data.secret !== 'string' || data.secret === '') {
    // An empty secret on an update keeps the stored one (forms send what the user left blank).
    if (before) delete data.secret;
    else data.secret = null;
    if (before && typeof data.passphrase === 'string' && data.passphrase !== '' && type === 'ssh_key') {
      // A new passphrase alone must still open the stored key.
      const key = unseal(ctx.req, before.secret);
      if (!key) errors.passphrase = [acm(lang, 'verify_no_secret')];
      else {
        const r = checkSecret(lang, type, key, data.passphrase);
        if ('error' in r) errors[r.field] = [r.error];
        else {
          data.passphrase = seal(ctx.req, data.passphrase);
          return;
        }
      }
    }
    delete data.passphrase;
    return;
  }
  const passphrase =
    typeof data.passphrase === 'string' && data.passphrase !== ''
      ? data.passphrase
      : before && type === 'ssh_key' && data.passphrase === undefined
        ? (unseal(ctx.req, before.passphrase) ?? undefined)
        : undefined;
  const r = checkSecret(lang, type, data.secret, passphrase);
  if ('error' in r) {
    errors[r.field] = [r.error];
    return;
  }
  data.secret = seal(ctx.req, data.secret);
  data.passphrase = type === 'ssh_key' && passphrase ? seal(ctx.req, passphrase) : null;
  data.spec_info = JSON.stringify(r.ok.specInfo);
  if (!versioned) return;
  data.version = Number(before?.version ?? 0) + 1;
  secretWritten.add(data);
}

/** Marks data whose secret was copied sealed (from a template or another account) as a new version. */
export function markSecretWritten(data: Row): void {
  secretWritten.add(data);
}

async function uniqueName(ctx: ResourceCtx, assetId: string, name: string, id?: string): Promise<boolean> {
  let q = ctx.db.selectFrom('accounts_account').select('id').where('asset_id', '=', assetId).where('name', '=', name);
  if (id) q = q.where('id', '!=', id);
  return !(await q.executeTakeFirst());
}

async function applyTemplate(ctx: ResourceCtx, data: Row, errors: Errors): Promise<void> {
  const tpl = await ctx.db
    .selectFrom('accounts_accounttemplate')
    .selectAll()
    .where('id', '=', String(data.template))
    .where('org_id', '=', ctx.req.org.id)
    .executeTakeFirst();
  if (!tpl) {
    errors.template = [acm(ctx.req.lang, 'template_not_found', { id: String(data.template) })];
    return;
  }
  data.username = tpl.username;
  data.secret_type = tpl.secret_type;
  data.privileged = toBool(tpl.privileged);
  data.is_active = toBool(tpl.is_active);
  data.source = 'template';
  data.source_id = tpl.id;
  if (typeof data.secret !== 'string' || data.secret === '') {
    data.secret = tpl.secret;
    data.passphrase = tpl.passphrase;
    data.spec_info = tpl.spec_info;
    data.version = tpl.secret ? 1 : 0;
    if (tpl.secret) secretWritten.add(data);
    data.__sealed = true;
  }
}

async function checkSuFrom(ctx: ResourceCtx, data: Row, assetId: string, id: string | undefined, errors: Errors) {
  if (!data.su_from) return;
  const lang = ctx.req.lang;
  const platform = (await loadPlatforms(ctx, [assetId])).get(assetId);
  if (!platform?.su_enabled) {
    errors.su_from = [acm(lang, 'su_from_not_enabled')];
    return;
  }
  if (id && data.su_from === id) {
    errors.su_from = [acm(lang, 'su_from_self')];
    return;
  }
  const other = await ctx.db
    .selectFrom('accounts_account')
    .select('asset_id')
    .where('id', '=', String(data.su_from))
    .executeTakeFirst();
  if (other?.asset_id !== assetId) errors.su_from = [acm(lang, 'su_from_other_asset')];
}

async function validateAccount(data: Row, ctx: ResourceCtx & { id?: string; before?: Row }) {
  const lang = ctx.req.lang;
  const before = ctx.before;
  const errors: Errors = {};
  const policy = (data.on_invalid ?? 'error') as 'skip' | 'update' | 'error';
  delete data.on_invalid;
  if (truthy(data.push_now)) {
    await requirePerm(ctx.req, 'accounts.push_account');
    if (!pushAccounts()) errors.push_now = [acm(lang, 'push_unavailable')];
    else pushNow.add(ctx.req);
  }
  delete data.push_now;
  if (before) {
    delete data.template;
    if (data.username !== undefined && data.username !== before.username)
      errors.username = [acm(lang, 'username_unchangeable')];
    if (data.asset !== undefined && data.asset !== before.asset_id) errors.asset = [acm(lang, 'asset_unchangeable')];
  } else if (data.template) {
    await applyTemplate(ctx, data, errors);
  }
  delete data.template;
  if (!before && !data.username) errors.username = [acm(lang, 'username_required')];
  if (Object.keys(errors).length) return errors;

  if (data.__sealed) delete data.__sealed;
  else await sealSecret(ctx, data, before, errors);

  const assetId = String(data.asset ?? before?.asset_id);
  if (!before) {
    const existing = await ctx.db
      .selectFrom('accounts_account')
      .selectAll()
      .where('asset_id', '=', assetId)
      .where('username', '=', String(data.username))
      .where('secret_type', '=', String(data.secret_type))
      .executeTakeFirst();
    if (existing) {
      if (policy === 'error')
        errors.username = [
          acm(lang, 'account_exists', { username: String(data.username), type: String(data.secret_type) }),
        ];
      else duplicates.set(data, { existing, policy });
      return Object.keys(errors).length ? errors : undefined;
    }
  }
  if (!before || (data.name !== undefined && data.name !== before.name)) {
    const given = typeof data.name === 'string' && data.name !== '';
    if (!given) data.name = data.username ?? before?.username;
    if (!(await uniqueName(ctx, assetId, String(data.name), before?.id))) {
      if (given) errors.name = [acm(lang, 'name_taken', { name: String(data.name) })];
      else data.name = `${String(data.username)}_${randomBytes(2).toString('hex')}`;
    }
  }
  await checkSuFrom(ctx, data, assetId, before?.id, errors);
  return Object.keys(errors).length ? errors : undefined;
}

/** Keeps the version just written in the history (sealed as stored, with who and when). */
async function recordHistory({ ctx, id, data }: WriteEvent): Promise<void> {
  if (!secretWritten.has(data)) return;
  const row = await ctx.db
    .selectFrom('accounts_account')
    .select(['version', 'secret_type', 'secret', 'passphrase'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('accounts_accounthistory')
    .values({
      id: randomUUID(),
      account_id: id,
      version: Number(row.version),
      secret_type: row.secret_type,
      secret: row.secret,
      passphrase: row.passphrase,
      history_date: new Date().toISOString(),
      history_user: actorOf(ctx.req),
    })
    .execute();
  ctx.req.log.info(
    { account: id, version: Number(row.version), user: ctx.req.user?.username },
    'account secret changed',
  );
}

const KEPT_ON_UPDATE = ['secret', 'passphrase', 'spec_info', 'privileged', 'is_active', 'comment', 'su_from', 'params'];

/** `on_invalid`: answer with the existing account (skip) or write the new values onto it (update). */
export async function resolveDuplicate(
  def: ResourceDef,
  data: Row,
  ctx: ResourceCtx,
): Promise<{ row: Row; state: 'skipped' | 'updated' } | undefined> {
  const dup = duplicates.get(data);
  if (!dup) return undefined;
  if (dup.policy === 'skip') return { row: dup.existing, state: 'skipped' };
  const patch: Row = {};
  for (const k of KEPT_ON_UPDATE)
    if (data[k] !== undefined && !(k === 'secret' && data[k] === null)) patch[k] = data[k];
  if (patch.secret === undefined) delete patch.passphrase;
  if (secretWritten.has(data)) {
    patch.version = Number(dup.existing.version) + 1;
    secretWritten.add(patch);
  }
  return { row: await updateObject(def, ctx, dup.existing, patch), state: 'updated' };
}

export const accountHooks: NonNullable<ResourceDef['hooks']> = {
  validate: validateAccount,
  beforeInsert(values) {
    values.connectivity = '-';
    values.version ??= 0;
    values.spec_info ??= '{}';
  },
  async createInstead(data, ctx, def) {
    return (await resolveDuplicate(def, data, ctx))?.row;
  },
  async afterCreate(e) {
    await recordHistory(e);
    await pushIfAsked(e.ctx, e.id);
  },
  async afterUpdate(e) {
    await recordHistory(e);
    await pushIfAsked(e.ctx, e.id);
  },
};

/** Requests whose account asked `push_now`: pushed once written (accounts/pushPort.ts). */
const pushNow = new WeakSet<FastifyRequest>();
const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

async function pushIfAsked(ctx: ResourceCtx, id: string): Promise<void> {
  const push = pushAccounts();
  if (!push || !pushNow.has(ctx.req)) return;
  await push(ctx, [id]);
}
