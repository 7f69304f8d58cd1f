import type { FastifyRequest } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { insertConnectionToken } from '../../authentication/profile/connectionTokens.ts';
import { ACTION_BITS } from '../../perms/actions.ts';
import { grantsPort } from '../../perms/grantsPort.ts';
import { permedAccountsOf, type PermedAccount } from '../../perms/permedAccounts.ts';
import { tm, type TerminalMessageKey } from '../gateway/gatewayError.ts';
import { loginAssetVerdict } from './tokenAcls.ts';
import { reviewLoginAsset } from './loginAssetReview.ts';
import { CONNECT_METHODS, methodAllowed } from './connectMethods.ts';

/**
 * Creating a connection token for the caller (`POST /api/v1/authentication/connection-token/`),
 * and checking one again when it is spent or exchanged: the asset granted, the account permed
 * with the connect action now, `@ANON` only for web methods, `@INPUT` with a username (its secret
 * sealed), the login-asset rules (reject -> `acl_reject`, review -> `acl_review`, or a ticket's
 * wait with `?create_ticket=1`: loginAssetReview.ts) and the
 * connect-method rules. The token expires at the earlier of the one-time lifetime and the
 * permission's end.
 */
export interface TokenRequest {
  assetId: string;
  account: string;
  protocol: string;
  connectMethod: string;
  inputUsername: string;
  inputSecret: string;
  connectOptions: Record<string, unknown>;
}

export interface CheckedToken {
  asset: { id: string; name: string; org_id: string };
  account: PermedAccount;
  /** The approved login-asset ticket a `review` rule let the connection through with. */
  reviewTicketId?: string;
}

function bad(lang: Language, code: string, key: TerminalMessageKey, status = 400, params?: Record<string, string>) {
  return new ApiError(status, { detail: tm(lang, key, params), code });
}

function str(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : '';
}

/** The body read into a request; a missing or malformed field is a 400 naming it. */
export function readTokenRequest(lang: Language, raw: unknown): TokenRequest {
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  for (const field of ['asset', 'account'])
    if (!str(body, field))
      throw new ApiError(400, { [field]: [tm(lang, 'token_field_required', { field })], code: 'required' });
  const options = body.connect_options;
  return {
    assetId: str(body, 'asset'),
    account: str(body, 'account'),
    protocol: str(body, 'protocol') || 'ssh',
    connectMethod: str(body, 'connect_method') || 'web_cli',
    inputUsername: str(body, 'input_username'),
    inputSecret: typeof body.input_secret === 'string' ? body.input_secret : '',
    connectOptions:
      options && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {},
  };
}

/**
 * Whether one of the user's most recently expired permissions granted the account with connect
 * just before it ended: the refusal then says the permission expired (`perm_expired`).
 */
async function expiredGrant(
  req: FastifyRequest,
  userId: string,
  assetId: string,
  pick: (list: PermedAccount[]) => PermedAccount | undefined,
): Promise<boolean> {
  const { db } = req;
  const now = new Date().toISOString();
  const ends = await db
    .selectFrom('perms_assetpermission as p')
    .select('p.date_expired')
    .where('p.is_active', '=', true)
    .where('p.date_expired', '<=', now)
    .where((eb) =>
      eb.or([
        eb(
          'p.id',
          'in',
          eb.selectFrom('perms_assetpermission_users').select('assetpermission_id').where('user_id', '=', userId),
        ),
        eb(
          'p.id',
          'in',
          eb
            .selectFrom('perms_assetpermission_user_groups as pg')
            .innerJoin('users_user_groups as ug', 'ug.usergroup_id', 'pg.usergroup_id')
            .select('pg.assetpermission_id')
            .where('ug.user_id', '=', userId),
        ),
      ]),
    )
    .orderBy('p.date_expired', 'desc')
    .limit(5)
    .execute();
  const g = { db, dialect: req.server.deps.database.dialect };
  for (const { date_expired } of ends) {
    const before = new Date(Date.parse(date_expired) - 1000).toISOString();
    if (pick(await permedAccountsOf(g, userId, assetId, { now: before }))) return true;
  }
  return false;
}

/** Checks a stored token's request again (when it is spent, or its k8s tree is browsed). */
export function recheckStoredToken(
  req: FastifyRequest,
  user: { id: string },
  row: { asset_id: string; account: string; connect_method: string; input_username: string; protocol: string },
): Promise<CheckedToken> {
  return checkTokenRequest(req, user, {
    assetId: row.asset_id,
    account: row.account,
    connectMethod: row.connect_method,
    inputUsername: row.input_username,
    protocol: row.protocol,
  });
}

/** Everything a token needs to hold now, or the refusal. */
export async function checkTokenRequest(
  req: FastifyRequest,
  user: { id: string },
  t: Pick<TokenRequest, 'assetId' | 'account' | 'connectMethod' | 'inputUsername' | 'protocol'>,
): Promise<CheckedToken> {
  const { db, lang } = req;
  const { deps } = req.server;
  const invalid = () => bad(lang, 'perm_account_invalid', 'token_perm_account_invalid');
  const asset = await db
    .selectFrom('assets_asset')
    .select(['id', 'name', 'org_id'])
    .where('id', '=', t.assetId)
    .executeTakeFirst();
  if (!asset) throw invalid();
  const accounts = await grantsPort(db, deps.database.dialect).permedAccountsOf(user.id, asset.id);
  const pick = (list: PermedAccount[]) =>
    list.find((a) => (a.alias === t.account || (a.real && a.id === t.account)) && a.actions & ACTION_BITS.connect);
  const account = pick(accounts);
  if (!account) {
    if (await expiredGrant(req, user.id, asset.id, pick)) throw bad(lang, 'perm_expired', 'token_perm_expired');
    throw invalid();
  }
  const method = CONNECT_METHODS.find((m) => m.value === t.connectMethod);
  if (!method || !method.protocols.includes(t.protocol)) throw invalid();
  const offered = await db
    .selectFrom('assets_protocol')
    .select('name')
    .where('asset_id', '=', asset.id)
    // SFTP runs over the asset's SSH port when it lists no SFTP protocol of its own (sshTarget.ts).
    .where('name', 'in', t.protocol === 'sftp' ? ['sftp', 'ssh'] : [t.protocol])
    .executeTakeFirst();
  if (!offered)
    throw bad(lang, 'protocol_not_supported', 'token_protocol_not_supported', 400, {
      protocol: t.protocol,
      asset: asset.name,
    });
  if (account.alias === '@ANON' && method.type !== 'web') throw bad(lang, 'anon_not_allowed', 'token_anon_not_allowed');
  if (account.alias === '@INPUT' && !t.inputUsername)
    throw new ApiError(400, { input_username: [tm(lang, 'token_input_username_required')], code: 'required' });
  if (!(await methodAllowed(req, user.id, t.connectMethod)))
    throw bad(lang, 'acl_reject', 'token_connect_method_rejected', 403);
  const username = account.alias === '@INPUT' ? t.inputUsername : account.username;
  const verdict = await loginAssetVerdict(db, deps.settings, {
    userId: user.id,
    assetId: asset.id,
    orgId: asset.org_id,
    username,
    alias: account.alias,
    ip: req.ip,
  });
  if (verdict?.action === 'reject') throw bad(lang, 'acl_reject', 'token_acl_reject', 403);
  const reviewTicketId =
    verdict?.action === 'review'
      ? await reviewLoginAsset(
          req,
          {
            userId: user.id,
            assetId: asset.id,
            orgId: asset.org_id,
            account: username,
            ruleId: verdict.ruleId,
            reviewers: verdict.reviewers,
          },
          bad(lang, 'acl_review', 'token_acl_review'),
        )
      : undefined;
  return { asset, account, ...(reviewTicketId ? { reviewTicketId } : {}) };
}

/**
 * Creates a one-time token (CONNECTION_TOKEN_ONETIME_EXPIRATION) after the checks, made as `user`:
 * the caller, or the user a component names (`super-connection-token/`), checked as that user.
 */
export async function createConnectionToken(
  req: FastifyRequest,
  t: TokenRequest,
  user: { id: string; name: string; username: string } = req.user!,
) {
  const checked = await checkTokenRequest(req, user, t);
  const { deps } = req.server;
  const ttl = Number(await deps.settings.get('CONNECTION_TOKEN_ONETIME_EXPIRATION')) || 300;
  const permLeft = Math.floor((Date.parse(checked.account.date_expired) - Date.now()) / 1000);
  return insertConnectionToken(deps, req.db, {
    userId: user.id,
    userDisplay: `${user.name}(${user.username})`,
    orgId: checked.asset.org_id,
    assetId: checked.asset.id,
    assetDisplay: checked.asset.name,
    account: checked.account.alias,
    inputUsername: checked.account.alias === '@INPUT' ? t.inputUsername : '',
    // @USER: the password typed when the user has no stored namesake (or it holds no secret).
    inputSecret: checked.account.alias === '@INPUT' || checked.account.alias === '@USER' ? t.inputSecret : '',
    protocol: t.protocol,
    connectMethod: t.connectMethod,
    connectOptions: t.connectOptions,
    ttlSeconds: Math.max(1, Math.min(ttl, permLeft)),
    createdBy: req.user!.username,
  });
}
