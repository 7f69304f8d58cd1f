import type { FastifyRequest } from 'fastify';
import { toBool } from '../../../platform/db/schema.ts';
import { checkTokenRequest, type CheckedToken } from './connectionTokenCreate.ts';

/**
 * Spending a connection token when a terminal connects with it: live and active, then (unless
 * it is reusable and the site allows reuse) expired in the same statement that claims it, so two
 * connections racing for a one-time token get it once. The permission and rules are checked
 * again: a grant revoked since the token was made refuses it.
 */
export interface SpentToken extends CheckedToken {
  token: { id: string; userId: string; connectMethod: string; protocol: string };
  user: { id: string; name: string; username: string };
}

export async function spendToken(req: FastifyRequest, id: string): Promise<SpentToken | undefined> {
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
  if (!row || !row.asset_id) return undefined;
  const reusable = toBool(row.is_reusable) && Boolean(await req.server.deps.settings.get('CONNECTION_TOKEN_REUSABLE'));
  if (!reusable) {
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
  const checked = await checkTokenRequest(req, user, {
    assetId: row.asset_id,
    account: row.account,
    connectMethod: row.connect_method,
    inputUsername: row.input_username,
    protocol: row.protocol,
  });
  return {
    ...checked,
    token: { id: row.id, userId: row.user_id, connectMethod: row.connect_method, protocol: row.protocol },
    user: { id: user.id, name: user.name, username: user.username },
  };
}
