import type { Config } from '../../../platform/config.ts';
import { dialectOf } from './dbTarget.ts';

/**
 * What a user types to reach a database through Gatehouse with a connection token (the
 * connection-token dialog and `client-url`): the proxy's port for the asset's protocol
 * (`GATEHOUSE_POSTGRESQL_PORT`, `GATEHOUSE_MYSQL_PORT`; 0 when off), the token's id as the user
 * name; the token's value is the password the client asks for (never on the command line).
 */
export function dbProxyPort(
  config: Pick<Config, 'postgresqlPort' | 'mysqlPort'>,
  protocol: string,
): number | undefined {
  const dialect = dialectOf(protocol);
  if (!dialect) return undefined;
  return dialect === 'postgresql' ? config.postgresqlPort : config.mysqlPort;
}

/** The client's command line for a token, or '' when the protocol has no proxy (or it is off). */
export function dbCommandLine(t: {
  protocol: string;
  host: string;
  port: number;
  tokenId: string;
  database?: string;
}): string {
  const { port } = t;
  if (!port) return '';
  const db = t.database ?? '';
  if (t.protocol === 'postgresql')
    return `psql "host=${t.host} port=${port} user=${t.tokenId}${db ? ` dbname=${db}` : ''}"`;
  return `mysql -h ${t.host} -P ${port} -u ${t.tokenId} -p${db ? ` ${db}` : ''}`;
}
