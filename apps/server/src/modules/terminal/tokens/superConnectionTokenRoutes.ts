import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { recordOperation } from '../../../resource/audit.ts';
import { registerLoggedModel } from '../../../resource/registry.ts';
import { CONNECTION_TOKEN, connectionTokenOut } from '../../authentication/profile/connectionTokens.ts';
import { grantsPort } from '../../perms/grantsPort.ts';
import { TM, tm } from '../gateway/gatewayError.ts';
import { createConnectionToken, readTokenRequest } from './connectionTokenCreate.ts';
import { spendToken } from './tokenSpend.ts';
import { tokenSecretPayload } from './tokenSecretPayload.ts';

/**
 * `/api/v1/authentication/super-connection-token/` for terminal components and service accounts:
 * every token of the org (all in the root org), tokens made for a named user (checked as that
 * user, `connectionTokenCreate.ts`), `secret/` and `renewal/`.
 * `secret/` closes the original's hole (the account's secret to anyone holding the permission):
 * only a caller signing with an access key, or a service account, gets it, never a browser
 * session; the call spends the token (`tokenSpend.ts`: a one-time token answers once, the
 * permission and rules are checked again), and each read is an operate-log "view" naming the
 * caller, token, asset and account, never the secret.
 */
const BASE = '/api/v1/authentication/super-connection-token/';
/** The operate log's model of the secret reads, named in the reader's language. */
const MODEL = { model: 'superconnectiontoken', label: TM.model_superconnectiontoken };

function body(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

function requiredId(req: FastifyRequest): string {
  const id = body(req).id;
  if (typeof id !== 'string' || !id.trim())
    throw new ApiError(400, { id: [tm(req.lang, 'token_field_required', { field: 'id' })], code: 'required' });
  return id.trim();
}

const notFound = (req: FastifyRequest) =>
  new ApiError(404, { detail: tm(req.lang, 'token_not_found'), code: 'not_found' });

/** A token of the request's org (any org from the root org), else 404. */
async function tokenInOrg(req: FastifyRequest, id: string) {
  let q = req.db
    .selectFrom('authentication_connectiontoken as t')
    .leftJoin('orgs_organization as o', 'o.id', 't.org_id')
    .selectAll('t')
    .select('o.name as org_name')
    .where('t.id', '=', id);
  if (!req.org.is_root) q = q.where('t.org_id', '=', req.org.id);
  const row = await q.executeTakeFirst().catch(() => undefined);
  if (!row) throw notFound(req);
  return row;
}

/** Access-key signatures, or a service account's credentials; never a browser session. */
function isComponentCaller(req: FastifyRequest): boolean {
  if (req.authMethod === 'signature') return true;
  return req.authMethod !== 'session' && req.authMethod !== null && toBool(req.user!.is_service_account);
}

async function namedUser(req: FastifyRequest, raw: unknown) {
  if (raw === undefined || raw === null || raw === '') return req.user!;
  const user =
    typeof raw === 'string'
      ? await req.db
          .selectFrom('users_user')
          .select(['id', 'name', 'username', 'is_active'])
          .where('id', '=', raw)
          .executeTakeFirst()
          .catch(() => undefined)
      : undefined;
  if (!user || !toBool(user.is_active))
    throw new ApiError(400, { user: [tm(req.lang, 'super_token_user_not_found')], code: 'invalid' });
  return user;
}

export function registerSuperConnectionTokenRoutes(app: FastifyInstance): void {
  registerLoggedModel(MODEL);
  app.get(
    BASE,
    { config: { perm: 'authentication.view_superconnectiontoken', describe: CONNECTION_TOKEN } },
    async (req) => {
      let q = req.db
        .selectFrom('authentication_connectiontoken as t')
        .leftJoin('orgs_organization as o', 'o.id', 't.org_id')
        .selectAll('t')
        .select('o.name as org_name')
        .orderBy('t.date_created', 'desc');
      if (!req.org.is_root) q = q.where('t.org_id', '=', req.org.id);
      return (await q.execute()).map((r) => connectionTokenOut(r));
    },
  );

  app.post(BASE, { config: { perm: 'authentication.add_superconnectiontoken' } }, async (req, reply) => {
    const t = readTokenRequest(req.lang, req.body);
    const user = await namedUser(req, body(req).user);
    const asset = await req.db
      .selectFrom('assets_asset')
      .select('org_id')
      .where('id', '=', t.assetId)
      .executeTakeFirst()
      .catch(() => undefined);
    // An asset of another org than the request's is one the caller cannot name.
    if (asset && !req.org.is_root && asset.org_id !== req.org.id) t.assetId = '';
    const row = await createConnectionToken(req, t, user);
    return reply.code(201).send(connectionTokenOut(await tokenInOrg(req, row.id)));
  });

  app.post(`${BASE}secret/`, { config: { perm: 'authentication.view_superconnectiontokensecret' } }, async (req) => {
    const id = requiredId(req);
    const expireNow = body(req).expire_now;
    if (expireNow !== undefined && typeof expireNow !== 'boolean')
      throw new ApiError(400, { expire_now: [tm(req.lang, 'super_token_expire_now_invalid')], code: 'invalid' });
    if (!isComponentCaller(req))
      throw new ApiError(403, { detail: tm(req.lang, 'super_token_component_only'), code: 'permission_denied' });
    const row = await tokenInOrg(req, id);
    const spent = await spendToken(req, row.id, undefined, { expireReusable: expireNow === true });
    if (!spent) throw notFound(req);
    const out = await tokenSecretPayload(req, spent);
    const account = (out.account as { name: string; username: string }) ?? { name: '', username: '' };
    const resource = tm(req.lang, 'super_token_secret_read', {
      token: row.id,
      account: `${account.name}(${account.username})`,
      asset: spent.asset.name,
      user: `${spent.user.name}(${spent.user.username})`,
    });
    await recordOperation(req.db, req, {
      action: 'view',
      def: MODEL,
      resourceId: row.id,
      resourceName: resource,
      orgId: row.org_id,
      diff: [],
    });
    req.log.info({ token: row.id, user: req.user?.username, ip: req.ip }, 'connection token secret read');
    return out;
  });

  app.patch(`${BASE}renewal/`, { config: { perm: 'authentication.add_superconnectiontoken' } }, async (req) => {
    const row = await tokenInOrg(req, requiredId(req));
    if (!row.asset_id) throw notFound(req);
    if (Date.parse(row.date_expired) <= Date.now() || !toBool(row.is_active))
      throw new ApiError(403, {
        detail: tm(req.lang, 'super_token_expired', { date: row.date_expired }),
        code: 'token_expired',
      });
    const { settings, database } = req.server.deps;
    const reusable = toBool(row.is_reusable) && Boolean(await settings.get('CONNECTION_TOKEN_REUSABLE'));
    const ttl = reusable
      ? Number(await settings.get('CONNECTION_TOKEN_REUSABLE_EXPIRATION')) || 30 * 24 * 3600
      : Number(await settings.get('CONNECTION_TOKEN_ONETIME_EXPIRATION')) || 300;
    const accounts = await grantsPort(req.db, database.dialect).permedAccountsOf(row.user_id, row.asset_id);
    const permed = accounts.find((a) => a.alias === row.account || (a.real && a.id === row.account));
    if (!permed)
      throw new ApiError(400, { detail: tm(req.lang, 'token_perm_account_invalid'), code: 'perm_account_invalid' });
    const until = Math.min(Date.now() + ttl * 1000, Date.parse(permed.date_expired));
    let expires = row.date_expired;
    if (until > Date.parse(row.date_expired)) {
      expires = new Date(until).toISOString();
      const now = new Date().toISOString();
      await req.db
        .updateTable('authentication_connectiontoken')
        .set({ date_expired: expires, date_updated: now, updated_by: req.user!.username })
        .where('id', '=', row.id)
        .where('date_expired', '>', now)
        .execute();
    }
    return { ok: true, msg: tm(req.lang, 'super_token_renewed', { date: expires }) };
  });
}
