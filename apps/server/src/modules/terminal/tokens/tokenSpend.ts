import type { FastifyRequest } from 'fastify';
import { toBool } from '../../../platform/db/schema.ts';
import type { TypedLogin } from '../gateway/sshTarget.ts';
import { recheckStoredToken, type CheckedToken } from './connectionTokenCreate.ts';

/**
 * Spending a connection token when a terminal connects with it: live and active, then (unless
 * it is reusable and the site allows reuse) expired in the same statement that claims it, so two
 * connections racing for a one-time token get it once. The permission and rules are checked
 * again: a grant revoked since the token was made refuses it. A virtual account's login comes
 * from the token: `@INPUT` its `input_username` and sealed `input_secret`, `@USER` the user's
 * username and (when no namesake is stored, or it has no secret) the token's secret.
 * `expireReusable`: a reusable token is spent too (a component's `expire_now`).
 */
export interface SpentToken extends CheckedToken {
  token: { id: string; userId: string; connectMethod: string; protocol: string };
  user: { id: string; name: string; username: string };
  /** The typed login of `@INPUT` / `@USER` (unsealed, for the gateway only). */
  typed?: TypedLogin;
}

/**
 * `signedIn`: the user of the page's own sign-in cookie, when it sends one. A token of someone
 * else is then refused and left unspent: a link `/luna/?token=<attacker's token>` cannot put a
 * victim's keystrokes into the attacker's session.
 */
export async function spendToken(
  req: FastifyRequest,
  id: string,
  signedIn?: string,
  opts: { expireReusable?: boolean } = {},
): Promise<SpentToken | undefined> {
  const { db } = req;
  const now = new Date().toISOString();
  const row = await db
    .selectFrom('authentication_connectiontoken')
    .selectAll()
    .where('id', '=', id)
    .where('date_expired', '>', now)
    .where('is_active', '=', true)
    .executeTakeFirst()
    .catch(() => undefined);
  if (!row || !row.asset_id || (signedIn && row.user_id !== signedIn)) return undefined;
  const reusable = toBool(row.is_reusable) && Boolean(await req.server.deps.settings.get('CONNECTION_TOKEN_REUSABLE'));
  if (!reusable || opts.expireReusable) {
    const claimed = await db
      .updateTable('authentication_connectiontoken')
      .set({ date_expired: now, date_updated: now })
      .where('id', '=', row.id)
      .where('date_expired', '>', now)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  }
  const user = await db
    .selectFrom('users_user')
    .select(['id', 'name', 'username', 'is_active'])
    .where('id', '=', row.user_id)
    .executeTakeFirst();
  if (!user || !toBool(user.is_active)) return undefined;
  const checked = await recheckStoredToken(req, user, { ...row, asset_id: row.asset_id });
  const secret = row.input_secret ? req.server.deps.secretBox.decrypt(row.input_secret) : '';
  const alias = checked.account.alias;
  const typed =
    alias === '@INPUT'
      ? { name: checked.account.name, username: row.input_username, password: secret }
      : alias === '@USER'
        ? { name: checked.account.name, username: user.username, password: secret }
        : undefined;
  return {
    ...checked,
    ...(typed ? { typed } : {}),
    token: { id: row.id, userId: row.user_id, connectMethod: row.connect_method, protocol: row.protocol },
    user: { id: user.id, name: user.name, username: user.username },
  };
}
