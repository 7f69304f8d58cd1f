import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import type { DB } from '../../../platform/db/schema.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { targetOf } from '../../assets/connectivity.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { openTunnel } from '../gateway/sshConnect.ts';
import { domainGateway, type Hop, type TypedLogin } from '../gateway/sshTarget.ts';
import type { SqlDialect } from './sqlText.ts';

/**
 * Where a database session goes and with which secret: the asset's database protocol and port,
 * the account's password from the vault (unsealed here, handed to the upstream login only), the
 * default database, and the domain's gateway when the asset has a domain (the connection then runs
 * in the gateway's `forwardOut` channel, as SSH sessions do: `gateway/sshConnect.ts`).
 */
export interface DbTarget {
  dialect: SqlDialect;
  /** The asset's protocol name (`mysql`, `mariadb`, `postgresql`): the session's protocol. */
  protocol: string;
  assetId: string;
  host: string;
  port: number;
  username: string;
  password: string;
  /** The asset's default database (`db_name`). */
  database: string;
  useSsl: boolean;
  gateway?: Hop;
  orgId: string;
  display: { asset: string; account: string };
}

/** The asset protocols each proxy serves. */
export const DIALECT_PROTOCOLS: Record<SqlDialect, string[]> = {
  mysql: ['mysql', 'mariadb'],
  postgresql: ['postgresql'],
};

/** The proxy that serves an asset protocol, if any. */
export function dialectOf(protocol: string): SqlDialect | undefined {
  if (DIALECT_PROTOCOLS.mysql.includes(protocol)) return 'mysql';
  if (DIALECT_PROTOCOLS.postgresql.includes(protocol)) return 'postgresql';
  return undefined;
}

export async function resolveDbTarget(
  db: Kysely<DB>,
  box: SecretBox,
  lang: Language,
  dialect: SqlDialect,
  assetId: string,
  accountId: string,
  typed?: TypedLogin,
): Promise<DbTarget> {
  const asset = await db
    .selectFrom('assets_asset')
    .select(['id', 'name', 'address', 'domain_id', 'org_id', 'db_name', 'use_ssl'])
    .where('id', '=', assetId)
    .executeTakeFirstOrThrow();
  const protocol = await db
    .selectFrom('assets_protocol')
    .select(['name', 'port'])
    .where('asset_id', '=', assetId)
    .where('name', 'in', DIALECT_PROTOCOLS[dialect])
    .executeTakeFirst();
  if (!protocol) throw new GatewayError('db_no_protocol', lang, { asset: asset.name, protocol: dialect });
  const account = await db
    .selectFrom('accounts_account')
    .selectAll()
    .where('id', '=', accountId)
    .where('asset_id', '=', assetId)
    .executeTakeFirst();
  let username: string;
  let password: string;
  let accountName: string;
  const stored = account?.secret && account.secret_type === 'password' ? box.decrypt(account.secret) : undefined;
  if (account && stored !== undefined) {
    username = account.username;
    password = stored;
    accountName = account.name;
  } else if (typed) {
    username = account?.username ?? typed.username;
    password = typed.password;
    accountName = account?.name ?? typed.name;
  } else
    throw new GatewayError('no_secret', lang, {
      account: account ? `${account.name}(${account.username})` : accountId,
    });
  const t = targetOf(asset.address, { name: protocol.name, port: Number(protocol.port) });
  return {
    dialect,
    protocol: protocol.name,
    assetId: asset.id,
    host: t.host,
    port: t.port,
    username,
    password,
    database: asset.db_name ?? '',
    useSsl: toBool(asset.use_ssl ?? false),
    ...(asset.domain_id ? { gateway: await domainGateway(db, box, asset.domain_id, asset.name, lang) } : {}),
    orgId: asset.org_id,
    display: { asset: `${asset.name}(${asset.address})`, account: `${accountName}(${username})` },
  };
}

export interface DbLink {
  sock: Duplex;
  /** Closes the connection and the gateway's SSH connection under it. */
  close(): void;
}

const CONNECT_TIMEOUT_MS = 10_000;

/** A TCP stream to the database, through the domain's gateway when there is one. */
export async function openDbLink(db: Kysely<DB>, lang: Language, t: DbTarget): Promise<DbLink> {
  const where = `${t.host}:${t.port}`;
  if (t.gateway) {
    const { sock, jump } = await openTunnel(db, lang, t.gateway, t);
    // Errors end the stream ('close'), which its users follow; none may go unheard.
    sock.on('error', () => undefined);
    sock.once('close', () => jump.end());
    return {
      sock,
      close: () => {
        sock.destroy();
        jump.end();
      },
    };
  }
  const sock = await new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect({ host: t.host, port: t.port });
    const fail = (e: Error) => {
      s.destroy();
      reject(new GatewayError('connect_failed', lang, { target: where, error: e.message }));
    };
    const timer = setTimeout(() => fail(new Error('timed out')), CONNECT_TIMEOUT_MS);
    s.once('error', fail);
    s.once('connect', () => {
      clearTimeout(timer);
      s.off('error', fail);
      s.on('error', () => undefined);
      s.setNoDelay(true);
      resolve(s);
    });
  });
  return { sock, close: () => sock.destroy() };
}
