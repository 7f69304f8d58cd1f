import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { GatewayError } from '../gateway/gatewayError.ts';
import { loginAssetVerdict, rejectedConnectMethods } from '../tokens/tokenAcls.ts';

/**
 * The rules a native SSH or SFTP login to an asset meets, as a connection token does
 * (`tokens/connectionTokenCreate.ts`): connect-method rules that reject `ssh_client` for the user,
 * then the asset org's login-asset rules (reject refuses; review refuses too, with the message that
 * approval is needed: the approval wait is the web terminal's, which opens the ticket).
 * Throws a NativeAccessDenied (a GatewayError in the user's language); resolves when the login may go on.
 */
export class NativeAccessDenied extends GatewayError {}

export async function checkNativeAccess(
  app: FastifyInstance,
  s: { userId: string; assetId: string; username: string; alias: string; ip: string; lang: Language },
): Promise<void> {
  const { db } = app.deps.database;
  const { settings } = app.deps;
  const rejected = await rejectedConnectMethods(db, settings, { userId: s.userId, ip: s.ip }, ['ssh_client']);
  if (rejected.has('ssh_client')) throw new NativeAccessDenied('token_connect_method_rejected', s.lang);
  const asset = await db.selectFrom('assets_asset').select('org_id').where('id', '=', s.assetId).executeTakeFirst();
  if (!asset) throw new NativeAccessDenied('token_acl_reject', s.lang);
  const verdict = await loginAssetVerdict(db, settings, {
    userId: s.userId,
    assetId: s.assetId,
    orgId: asset.org_id,
    username: s.username,
    alias: s.alias,
    ip: s.ip,
  });
  if (verdict?.action === 'reject') throw new NativeAccessDenied('token_acl_reject', s.lang);
  if (verdict?.action === 'review') throw new NativeAccessDenied('token_acl_review', s.lang);
}
