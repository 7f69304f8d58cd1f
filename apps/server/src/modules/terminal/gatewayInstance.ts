import type { FastifyInstance } from 'fastify';
import { GatewayInstance, instanceName } from './gateway/instance.ts';

/**
 * The app's built-in gateway: created with the app, started when it is ready (crash leftovers
 * closed, instance row written, bus control listening) and stopped when it closes (sessions
 * ended and recorded). Front ends (web terminal, native SSH) open sessions through it.
 */
const instances = new WeakMap<FastifyInstance, GatewayInstance>();

export function gatewayOf(app: FastifyInstance): GatewayInstance {
  const g = instances.get(app);
  if (!g) throw new Error('the gateway is not registered on this app');
  return g;
}

export function registerGatewayInstance(app: FastifyInstance): GatewayInstance {
  const { deps } = app;
  const g = new GatewayInstance({
    db: deps.database.db,
    bus: deps.bus,
    settings: deps.settings,
    secretBox: deps.secretBox,
    dataDir: deps.config.dataDir,
    name: instanceName(deps.config.port),
    remoteAddr: deps.config.host,
    graphicalLimit: deps.config.limits.graphicalSessions,
    log: app.log,
    cache: deps.cache,
    heartbeatMs: deps.config.gateway.heartbeatMs,
    replayStreamMs: deps.config.gateway.replayStreamMs,
  });
  instances.set(app, g);
  app.addHook('onReady', () => g.start());
  app.addHook('onClose', () => g.stop());
  return g;
}
