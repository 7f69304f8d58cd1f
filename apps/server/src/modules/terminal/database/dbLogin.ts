import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LANGUAGES, type Language } from '@gatehouse/contract';
import { mfaStepFor } from '../../authentication/mfa/mfaStep.ts';
import type { TypedLogin } from '../gateway/sshTarget.ts';
import { checkNativeAccess, NativeReviewPending } from '../ssh/nativeAccessRules.ts';
import { sshOtpStep, sshPasswordStep, sshRequest } from '../ssh/sshAuth.ts';
import { findDirectTarget } from '../ssh/sshTargets.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { spendToken } from '../tokens/tokenSpend.ts';
import { DIALECT_PROTOCOLS } from './dbTarget.ts';
import { dm } from './dbMessages.ts';
import type { SqlDialect } from './sqlText.ts';

/**
 * Who a database client signs in as on a proxy, by one of two logins:
 * - `<user>@<account>@<asset>` (or `<user>@<asset>` when one account fits) with the user's
 *   Gatehouse password, through the native SSH server's checks (`ssh/sshAuth.ts`: locks, the
 *   user's state, the login ACL, the login log). A user with MFA appends the current 6-digit code
 *   to the password (a database client has one password prompt; the code is checked by the same
 *   MFA step as SSH's keyboard-interactive one). `@USER` logs in with that same password;
 *   `@INPUT` needs a connection token (its login was typed in the dialog);
 * - a connection token made for the `db_client` method: its id as user, its value as password,
 *   spent as the web terminal spends one (`tokens/tokenSpend.ts`: checked again, one-time).
 * Then the rules a native login meets (`ssh/nativeAccessRules.ts` with the method `db_client`).
 * Every refusal is a DbLoginError, its message in the user's language for the client.
 */
export class DbLoginError extends Error {
  constructor(
    message: string,
    /** Known once the user and target are: the refusal is then a failed session's record. */
    readonly who?: DbLogin,
  ) {
    super(message);
  }
}

export interface DbLogin {
  user: { id: string; name: string; username: string };
  assetId: string;
  accountId: string;
  typed?: TypedLogin;
  lang: Language;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function userLanguage(app: FastifyInstance, userId: string): Promise<Language> {
  const row = await app.deps.database.db
    .selectFrom('users_user')
    .select('lang')
    .where('id', '=', userId)
    .executeTakeFirst();
  const lang = row?.lang as Language | undefined;
  return lang && (LANGUAGES as readonly string[]).includes(lang) ? lang : 'en';
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function tokenLogin(app: FastifyInstance, ip: string, dialect: SqlDialect, id: string, value: string) {
  const { db } = app.deps.database;
  const row = await db
    .selectFrom('authentication_connectiontoken')
    .select(['value', 'connect_method', 'protocol'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || !sameText(row.value, value)) throw new DbLoginError(dm('en', 'db_login_failed', { user: id }));
  if (row.connect_method !== 'db_client' || !DIALECT_PROTOCOLS[dialect].includes(row.protocol))
    throw new DbLoginError(dm('en', 'db_token_method', { protocol: dialect }));
  const spent = await spendToken(sshRequest(app, ip, 'en'), id).catch((e: unknown) => {
    throw new DbLoginError((e as Error).message);
  });
  if (!spent) throw new DbLoginError(dm('en', 'db_login_failed', { user: id }));
  const lang = await userLanguage(app, spent.user.id);
  const login: DbLogin = {
    user: spent.user,
    assetId: spent.asset.id,
    accountId: spent.account.real ? spent.account.id : spent.account.alias,
    ...(spent.typed ? { typed: spent.typed } : {}),
    lang,
  };
  return login;
}

async function passwordLogin(app: FastifyInstance, ip: string, dialect: SqlDialect, name: string, secret: string) {
  const at = name.indexOf('@');
  if (at <= 0 || at === name.length - 1) throw new DbLoginError(dm('en', 'db_login_name'));
  const username = name.slice(0, at);
  const target = name.slice(at + 1);
  const req = sshRequest(app, ip, 'en');
  const { db } = app.deps.database;
  // MFA: the code comes after the password (a database client asks one password only).
  const known = await db.selectFrom('users_user').select('id').where('username', '=', username).executeTakeFirst();
  let password = secret;
  let code: string | undefined;
  if (known && (await mfaStepFor(req, known.id)).required) {
    const m = /^([\s\S]*?)(\d{6})$/.exec(secret);
    if (!m) throw new DbLoginError(dm('en', 'db_mfa_code'));
    password = m[1]!;
    code = m[2]!;
  }
  const step = await sshPasswordStep(req, username, password);
  if (!step.ok) throw new DbLoginError(step.msg || dm('en', 'db_login_failed', { user: username }));
  if (step.mfa) {
    const otp = await sshOtpStep(req, step.user, code ?? '');
    if (!otp.ok) throw new DbLoginError(otp.msg || dm('en', 'db_login_failed', { user: username }));
  }
  const lang = await userLanguage(app, step.user.id);
  const user = { id: step.user.id, name: step.user.name, username: step.user.username };
  const found = await findDirectTarget(app, user.id, target);
  if (found === 'not_found') throw new DbLoginError(dm(lang, 'db_target_not_found', { target, protocol: dialect }));
  if (found === 'ambiguous') throw new DbLoginError(dm(lang, 'db_target_ambiguous', { target }));
  const { asset, account } = found;
  let typed: TypedLogin | undefined;
  if (account.alias === '@USER' && !account.real) typed = { name: account.name, username: user.username, password };
  else if (!account.real) throw new DbLoginError(dm(lang, 'db_virtual_account', { account: account.name }));
  const login: DbLogin = {
    user,
    assetId: asset.id,
    accountId: account.real ? account.id : account.alias,
    ...(typed ? { typed } : {}),
    lang,
  };
  try {
    await checkNativeAccess(app, {
      userId: user.id,
      assetId: asset.id,
      username: account.username || user.username,
      alias: account.alias,
      ip,
      lang,
      method: 'db_client',
    });
  } catch (e) {
    if (e instanceof NativeReviewPending || e instanceof GatewayError) throw new DbLoginError(e.message, login);
    throw e;
  }
  return login;
}

/** The login of a client on a proxy: a token's, or a user's by name and password. */
export function dbLogin(
  app: FastifyInstance,
  ip: string,
  dialect: SqlDialect,
  name: string,
  secret: string,
): Promise<DbLogin> {
  if (UUID.test(name)) return tokenLogin(app, ip, dialect, name, secret);
  return passwordLogin(app, ip, dialect, name, secret);
}
