import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { targetOf } from '../../assets/connectivity.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { gatewayOf, type Hop, type TypedLogin } from '../gateway/sshTarget.ts';

/**
 * Where a graphical session goes: the asset's address and its `vnc` or `rdp` port, the account's
 * username and password from the vault (unsealed here, handed only to the upstream handshake or
 * the RDP client), and the domain's gateway when the asset has a domain (the same choice as SSH's,
 * `gateway/sshTarget.ts`). A virtual account (`@INPUT`, `@USER`), or a stored one without a
 * password, uses what was typed.
 */
export type GraphicalProtocol = 'vnc' | 'rdp';

export interface GraphicalTarget {
  protocol: GraphicalProtocol;
  host: string;
  port: number;
  username: string;
  password: string;
  gateway?: Hop;
  orgId: string;
  /** The platform's protocol settings (RDP's `security`, ...). */
  setting: Record<string, unknown>;
  display: { asset: string; account: string };
}

export async function resolveGraphicalTarget(
  db: Kysely<DB>,
  box: SecretBox,
  lang: Language,
  protocol: GraphicalProtocol,
  assetId: string,
  accountId: string,
  typed?: TypedLogin,
): Promise<GraphicalTarget> {
  const asset = await db
    .selectFrom('assets_asset')
    .select(['id', 'name', 'address', 'domain_id', 'org_id'])
    .where('id', '=', assetId)
    .executeTakeFirstOrThrow();
  const proto = await db
    .selectFrom('assets_protocol')
    .select(['port'])
    .where('asset_id', '=', assetId)
    .where('name', '=', protocol)
    .executeTakeFirst();
  if (!proto) throw new GatewayError('no_graphical_protocol', lang, { asset: asset.name, protocol });
  const account = await db
    .selectFrom('accounts_account')
    .selectAll()
    .where('id', '=', accountId)
    .where('asset_id', '=', assetId)
    .executeTakeFirst();
  const stored = account?.secret && account.secret_type === 'password' ? box.decrypt(account.secret) : '';
  const password = stored || typed?.password || '';
  const username = account?.username ?? typed?.username ?? '';
  if (!account && !typed) throw new GatewayError('no_secret', lang, { account: accountId });
  // RDP always logs in with a password; a VNC server may ask for none.
  if (protocol === 'rdp' && !password)
    throw new GatewayError('no_secret', lang, { account: `${account?.name ?? typed?.name}(${username})` });
  const t = targetOf(asset.address, { name: protocol, port: Number(proto.port) });
  let gateway: Hop | undefined;
  if (asset.domain_id) {
    gateway = await gatewayOf(db, box, asset.domain_id, lang);
    if (!gateway) throw new GatewayError('no_gateway', lang, { asset: asset.name });
  }
  const platform = await db
    .selectFrom('assets_asset as a')
    .innerJoin('assets_platformprotocol as pp', 'pp.platform_id', 'a.platform_id')
    .select(['pp.setting'])
    .where('a.id', '=', assetId)
    .where('pp.name', '=', protocol)
    .executeTakeFirst()
    .catch(() => undefined);
  let setting: Record<string, unknown> = {};
  try {
    const raw = platform?.setting as unknown;
    setting = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {})) as Record<string, unknown>;
  } catch {
    setting = {};
  }
  return {
    protocol,
    host: t.host,
    port: t.port,
    username,
    password,
    ...(gateway ? { gateway } : {}),
    orgId: asset.org_id,
    setting,
    display: {
      asset: `${asset.name}(${asset.address})`,
      account: `${account?.name ?? typed!.name}(${username})`,
    },
  };
}
