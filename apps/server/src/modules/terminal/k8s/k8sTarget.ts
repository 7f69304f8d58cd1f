import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import type { DB } from '../../../platform/db/schema.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { gatewayOf, type Hop } from '../gateway/sshTarget.ts';

/**
 * Where a Kubernetes asset's API server is and how the gateway authenticates to it: the asset's
 * address (`https://host:port[/prefix]`, or a bare host with the `k8s` protocol's port), the
 * account's `token` secret from the vault as the bearer (unsealed here, sent only in the
 * Authorization header to that server), and the domain's gateway when the asset has a domain.
 */
export interface K8sTarget {
  host: string;
  port: number;
  /** The TLS server name (none for an IP address). */
  servername?: string;
  /** Path prefix of the API server (a proxy like `/k8s/clusters/<id>`), without the trailing slash. */
  prefix: string;
  token: string;
  gateway?: Hop;
  orgId: string;
  display: { asset: string; account: string };
}

function endpointOf(address: string, port: number): { host: string; port: number; prefix: string } {
  if (/^https?:\/\//i.test(address)) {
    try {
      const u = new URL(address);
      return {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443,
        prefix: u.pathname.replace(/\/+$/, ''),
      };
    } catch {
      // Not a URL after all: a host name.
    }
  }
  return { host: address, port, prefix: '' };
}

export async function resolveK8sTarget(
  db: Kysely<DB>,
  box: SecretBox,
  lang: Language,
  assetId: string,
  accountId: string,
): Promise<K8sTarget> {
  const asset = await db
    .selectFrom('assets_asset')
    .select(['id', 'name', 'address', 'domain_id', 'org_id'])
    .where('id', '=', assetId)
    .executeTakeFirstOrThrow();
  const protocol = await db
    .selectFrom('assets_protocol')
    .select('port')
    .where('asset_id', '=', assetId)
    .where('name', '=', 'k8s')
    .executeTakeFirst();
  if (!protocol) throw new GatewayError('k8s_no_protocol', lang, { asset: asset.name });
  const account = await db
    .selectFrom('accounts_account')
    .select(['name', 'username', 'secret', 'secret_type'])
    .where('id', '=', accountId)
    .where('asset_id', '=', assetId)
    .executeTakeFirst();
  const token = account?.secret && account.secret_type === 'token' ? box.decrypt(account.secret) : '';
  if (!account || !token)
    throw new GatewayError('k8s_no_token', lang, {
      account: account ? `${account.name}(${account.username})` : accountId,
    });
  const gateway = asset.domain_id ? await gatewayOf(db, box, asset.domain_id, lang) : undefined;
  if (asset.domain_id && !gateway) throw new GatewayError('no_gateway', lang, { asset: asset.name });
  const ep = endpointOf(asset.address, Number(protocol.port));
  return {
    ...ep,
    ...(isIP(ep.host) ? {} : { servername: ep.host }),
    token,
    ...(gateway ? { gateway } : {}),
    orgId: asset.org_id,
    display: { asset: `${asset.name}(${asset.address})`, account: `${account.name}(${account.username})` },
  };
}
