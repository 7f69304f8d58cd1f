import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tm, type TerminalMessageKey } from '../gateway/gatewayError.ts';
import { rejectedConnectMethods } from './tokenAcls.ts';

/**
 * The connect methods of the built-in gateway (`GET /api/v1/terminal/components/connect-methods/`)
 * minus those a connect-method rule rejects for the caller, and the endpoint a client reaches it
 * at (`GET /api/v1/terminal/endpoints/smart/`: the default endpoint, whose empty host means "the
 * host the browser used").
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
    protocols: ['ssh', 'telnet', 'k8s'],
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
];

export async function methodAllowed(req: FastifyRequest, userId: string, method: string): Promise<boolean> {
  const { db, server } = req;
  return !(await rejectedConnectMethods(db, server.deps.settings, { userId, ip: req.ip }, [method])).has(method);
}

export const DEFAULT_ENDPOINT_ID = '00000000-0000-0000-0000-000000000001';

/** The built-in gateway's endpoint; its SSH port is the native SSH server's (GATEHOUSE_SSH_PORT, 0 when off). */
function defaultEndpoint(sshPort: number) {
  return {
    id: DEFAULT_ENDPOINT_ID,
    name: 'Default',
    host: '',
    https_port: 443,
    http_port: 80,
    ssh_port: sshPort,
    rdp_port: 3389,
    mysql_port: 33061,
    mariadb_port: 33062,
    postgresql_port: 54320,
    redis_port: 63790,
    oracle_port_range: '',
    oracle_port: 0,
    comment: '',
  };
}

export function registerConnectMethodRoutes(app: FastifyInstance): void {
  app.get('/api/v1/terminal/components/connect-methods/', {}, async (req) => {
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
  app.get('/api/v1/terminal/endpoints/smart/', {}, async () => defaultEndpoint(app.deps.config.sshPort));
}
