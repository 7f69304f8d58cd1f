import type { FastifyInstance } from 'fastify';
import { setProtocolLogin, type ProtocolLogin } from '../../accounts/verify.ts';
import { connectMysql } from './mysqlUpstream.ts';
import { connectPg } from './pgUpstream.ts';
import { DIALECT_PROTOCOLS, type DbTarget } from './dbTarget.ts';
import { CAP, PROXY_CAPS } from './mysqlWire.ts';

/**
 * Account verification of database accounts (`accounts/verify.ts`) by the proxies' own upstream
 * login (`pgUpstream.ts`, `mysqlUpstream.ts`): the account's password against the server, then the
 * connection closed. Direct (not through a domain gateway), as the SSH verification is.
 */
async function login(app: FastifyInstance, o: ProtocolLogin): Promise<string | undefined> {
  const dialect = DIALECT_PROTOCOLS.postgresql.includes(o.protocol) ? 'postgresql' : 'mysql';
  const t: DbTarget = {
    dialect,
    protocol: o.protocol,
    assetId: '',
    host: o.host,
    port: o.port,
    username: o.username,
    password: o.password,
    database: o.database,
    useSsl: false,
    orgId: '',
    display: { asset: '', account: '' },
  };
  const { db } = app.deps.database;
  try {
    const up =
      dialect === 'postgresql'
        ? await connectPg(db, 'en', t, {}, { insecure: true })
        : await connectMysql(
            db,
            'en',
            t,
            { caps: PROXY_CAPS | CAP.CONNECT_WITH_DB, charset: 45, database: '' },
            { insecure: true },
          );
    up.link.close();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

export function registerDbVerification(app: FastifyInstance): void {
  setProtocolLogin([...DIALECT_PROTOCOLS.postgresql, ...DIALECT_PROTOCOLS.mysql], (o) => login(app, o));
}
