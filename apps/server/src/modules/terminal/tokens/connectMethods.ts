import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tm, type TerminalMessageKey } from '../gateway/gatewayError.ts';
import { rejectedConnectMethods } from './tokenAcls.ts';
import { shape } from '../../../resource/describe.ts';
import { matchEndpoint } from '../storage/endpoints.ts';

/**
 * The connect methods of the built-in gateway (`GET /api/v1/terminal/components/connect-methods/`)
 * minus those a connect-method rule rejects for the caller, and the endpoint a client reaches it
 * at (`GET /api/v1/terminal/endpoints/smart/`: the one the endpoint rules choose for the caller's
 * address, else `Default`; an empty host means "the host the browser used").
 */
export interface ConnectMethod {
  value: string;
  label: TerminalMessageKey;
  type: 'web' | 'native';
  endpoint_protocol: string;
  component: string;
  protocols: string[];
}

export const CONNECT_METHODS: readonly ConnectMethod[] = [
  {
    value: 'web_cli',
    label: 'connect_method_web_cli',
    type: 'web',
    endpoint_protocol: 'http',
    component: 'koko',
    protocols: ['ssh', 'telnet', 'k8s', 'mysql', 'mariadb', 'postgresql'],
  },
  {
    value: 'web_sftp',
    label: 'connect_method_web_sftp',
    type: 'web',
    endpoint_protocol: 'http',
    component: 'koko',
    protocols: ['sftp', 'ssh'],
  },
  {
    value: 'ssh_client',
    label: 'connect_method_ssh_client',
    type: 'native',
    endpoint_protocol: 'ssh',
    component: 'koko',
    protocols: ['ssh', 'sftp'],
  },
  {
    value: 'db_client',
    label: 'connect_method_db_client',
    type: 'native',
    endpoint_protocol: 'db',
    component: 'magnus',
    protocols: ['mysql', 'mariadb', 'postgresql'],
  },
  {
    // Graphical sessions in the browser (noVNC over the gateway's RFB relay: ../graphical/).
    value: 'web_gui',
    label: 'connect_method_web_gui',
    type: 'web',
    endpoint_protocol: 'http',
    component: 'lion',
    protocols: ['vnc', 'rdp'],
  },
];

export async function methodAllowed(req: FastifyRequest, userId: string, method: string): Promise<boolean> {
  const { db, server } = req;
  return !(await rejectedConnectMethods(db, server.deps.settings, { userId, ip: req.ip }, [method])).has(method);
}

export function registerConnectMethodRoutes(app: FastifyInstance): void {
  const methods = shape('connect_method', {
    value: 'string',
    label: 'string',
    type: 'string',
    endpoint_protocol: 'string',
    component: 'string',
    protocols: 'list',
  });
  app.get('/api/v1/terminal/components/connect-methods/', { config: { describe: methods } }, async (req) => {
    const rejected = await rejectedConnectMethods(
      req.db,
      app.deps.settings,
      { userId: req.user!.id, ip: req.ip },
      CONNECT_METHODS.map((m) => m.value),
    );
    const allowed = CONNECT_METHODS.filter((m) => !rejected.has(m.value)).map((m) => ({
      value: m.value,
      label: tm(req.lang, m.label),
      type: m.type,
      endpoint_protocol: m.endpoint_protocol,
      component: m.component,
      protocols: m.protocols,
    }));
    const flat = (req.query as Record<string, unknown>).flat;
    if (flat === '1' || flat === 'true') return allowed.map(({ protocols: _p, ...m }) => m);
    const out: Record<string, unknown[]> = {};
    for (const m of allowed) {
      const { protocols, ...method } = m;
      for (const p of protocols) (out[p] ??= []).push(method);
    }
    return out;
  });
  const endpoint = shape('endpoint', {
    id: 'string',
    name: 'string',
    host: 'string',
    https_port: 'integer',
    http_port: 'integer',
    ssh_port: 'integer',
    rdp_port: 'integer',
    mysql_port: 'integer',
    mariadb_port: 'integer',
    postgresql_port: 'integer',
    redis_port: 'integer',
    oracle_port_range: 'string',
    oracle_port: 'integer',
    comment: 'string',
  });
  // Rules by the caller's address choose it (storage/endpoints.ts); `protocol` and the asset or
  // session named do not change the choice here (no endpoint labels yet).
  app.get('/api/v1/terminal/endpoints/smart/', { config: { describe: endpoint } }, async (req) => {
    const row = await matchEndpoint(req.db, app.deps.config, req.ip);
    return { ...row, oracle_port_range: '', oracle_port: 0 };
  });
}
