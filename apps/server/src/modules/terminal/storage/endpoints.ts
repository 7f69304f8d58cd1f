import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import type { Config as AppConfig } from '../../../platform/config.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { ipInGroup } from '../../acls/matcher/ipGroup.ts';
import { DEFAULT_ENDPOINT_ID } from '../../../platform/db/migrations/m1250_terminal_storages.ts';

/**
 * Which endpoint (`terminal_endpoint`) a client is told to connect to: the active endpoint rules
 * in order of priority (1 first; ties by name) whose IP group holds the client's address pick one;
 * none matching, the built-in `Default`. An endpoint with an empty host means "the host the client
 * used to reach this server". The connection token's `client-url` and `endpoints/smart/` both ask
 * here, so a rule moves native clients and connection dialogs together.
 */
export type EndpointRow = DB['terminal_endpoint'];

/**
 * The ports of the built-in `Default` endpoint that follow this instance's configuration instead
 * of the row: its listeners are the instance's own (the native SSH server's, the database proxies':
 * `mysql_port` and `mariadb_port` from `GATEHOUSE_MYSQL_PORT`, `postgresql_port` from
 * `GATEHOUSE_POSTGRESQL_PORT`; 0 when off).
 */
export const CONFIGURED_DEFAULT_PORTS: Partial<Record<keyof EndpointRow, (c: AppConfig) => number>> = {
  ssh_port: (c) => c.sshPort,
  mysql_port: (c) => c.mysqlPort,
  mariadb_port: (c) => c.mysqlPort,
  postgresql_port: (c) => c.postgresqlPort,
};

/** The endpoint's port field that serves each protocol a client connects with. */
export const PROTOCOL_PORT: Readonly<Record<string, keyof EndpointRow>> = {
  ssh: 'ssh_port',
  sftp: 'ssh_port',
  telnet: 'ssh_port',
  http: 'http_port',
  https: 'https_port',
  rdp: 'rdp_port',
  mysql: 'mysql_port',
  mariadb: 'mariadb_port',
  postgresql: 'postgresql_port',
  redis: 'redis_port',
};

/** The Default endpoint as this instance serves it (configured ports over the stored ones). */
export function withConfiguredPorts(row: EndpointRow, config: AppConfig): EndpointRow {
  if (row.id !== DEFAULT_ENDPOINT_ID) return row;
  const out = { ...row } as Record<string, unknown>;
  for (const [k, port] of Object.entries(CONFIGURED_DEFAULT_PORTS)) out[k] = port!(config);
  return out as EndpointRow;
}

export async function matchEndpoint(db: Kysely<DB>, config: AppConfig, ip: string): Promise<EndpointRow> {
  const rules = await db.selectFrom('terminal_endpointrule').selectAll().orderBy('priority').orderBy('name').execute();
  let endpointId = DEFAULT_ENDPOINT_ID;
  for (const r of rules) {
    if (!toBool(r.is_active)) continue;
    let group: string[] = [];
    try {
      group = JSON.parse(r.ip_group) as string[];
    } catch {
      continue;
    }
    if (ipInGroup(ip, group)) {
      endpointId = r.endpoint_id;
      break;
    }
  }
  const row =
    (await db.selectFrom('terminal_endpoint').selectAll().where('id', '=', endpointId).executeTakeFirst()) ??
    (await db
      .selectFrom('terminal_endpoint')
      .selectAll()
      .where('id', '=', DEFAULT_ENDPOINT_ID)
      .executeTakeFirstOrThrow());
  return withConfiguredPorts(row, config);
}

/** The host and port a client of `protocol` is told to use, from the request's address. */
export async function clientEndpoint(
  req: FastifyRequest,
  protocol: string,
): Promise<{ endpoint: EndpointRow; host: string; port: number }> {
  const endpoint = await matchEndpoint(req.db, req.server.deps.config, req.ip);
  const field = PROTOCOL_PORT[protocol] ?? 'https_port';
  return { endpoint, host: endpoint.host || req.hostname, port: Number(endpoint[field]) };
}
