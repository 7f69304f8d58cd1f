import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { SecretBox } from '../../platform/crypto/secretBox.ts';
import { targetOf } from '../assets/connectivity.ts';
import type { Language } from '@gatehouse/contract';
import type { RunnerConnection } from '../ops/engine/runner.ts';
import { GatewayError } from '../terminal/gateway/gatewayError.ts';
import { gatewayOf } from '../terminal/gateway/sshTarget.ts';

/**
 * How a database module (`mysql`, `postgresql`, `sqlserver`) reaches a database asset: its
 * protocol named like its type (else its first), the account's password from the vault, and the
 * domain's gateway when the asset is in a domain (the database runner tunnels through it).
 */
export async function databaseConnection(
  db: Kysely<DB>,
  box: SecretBox,
  asset: { id: string; name: string; address: string; type: string; domain_id: string | null },
  accountId: string,
  lang: Language,
): Promise<RunnerConnection> {
  const protocols = await db
    .selectFrom('assets_protocol')
    .select(['name', 'port'])
    .where('asset_id', '=', asset.id)
    .execute();
  const p = protocols.find((x) => x.name === asset.type) ?? protocols[0];
  if (!p) throw new Error(`the database asset has no protocol to reach it by`);
  const account = await db
    .selectFrom('accounts_account')
    .select(['username', 'secret', 'secret_type'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  if (!account.secret || account.secret_type !== 'password')
    throw new Error(`the account ${account.username} has no password for the database`);
  const t = targetOf(asset.address, { name: p.name, port: Number(p.port) });
  const gateway = asset.domain_id ? await gatewayOf(db, box, asset.domain_id, lang) : undefined;
  if (asset.domain_id && !gateway) throw new GatewayError('no_gateway', lang, { asset: asset.name });
  return {
    host: t.host,
    port: t.port,
    username: account.username,
    password: box.decrypt(account.secret),
    ...(gateway
      ? { gateway: { assetId: gateway.assetId, host: gateway.host, port: gateway.port, ...gateway.credentials } }
      : {}),
  };
}
