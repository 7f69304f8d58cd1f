import { prettyStream } from './platform/log/prettyLog.ts';
import { registerRequestLog } from './http/requestLog.ts';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyWebsocket from '@fastify/websocket';
import type { Config } from './platform/config.ts';
import { openCache, type Cache } from './platform/cache/index.ts';
import { openBus, type Bus } from './platform/bus/index.ts';
import { openSecretBox, type SecretBox } from './platform/crypto/secretBox.ts';
import { checkSharedSecretKey } from './platform/crypto/secretKeyCheck.ts';
import { openDatabase, type Database } from './platform/db/database.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import type { AppDeps } from './http/context.ts';
import { SessionStore } from './http/session.ts';
import { registerErrorHandlers } from './http/errors.ts';
import { registerIdentification } from './http/identify.ts';
import { registerRoutePerms } from './http/routePerms.ts';
import { registerRouteMetadata } from './resource/routeMetadata.ts';
import { registerConsole } from './http/console.ts';
import { parseQueryString } from './http/queryString.ts';
import { registerSecurityHeaders } from './http/securityHeaders.ts';
import { registerWebsocketGuard } from './http/websocketGuard.ts';
import { registerBodyLimits } from './http/bodyLimits.ts';
import { SettingsStore } from './modules/settings/store.ts';
import { seed, type SeedResult } from './modules/bootstrap/seed.ts';
import { ensureSelfLicence } from './modules/xpack/licenceStore.ts';
import { registerModules } from './modules/index.ts';

export interface BuildOptions {
  /** Runs on the bare instance before anything is registered (tests watching every route). */
  before?: (app: FastifyInstance) => void;
  /** Registers more routes after the modules (tests declaring a resource of their own). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** Builds the Fastify application over already-opened platform services (tests build it too). */
export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const { limits } = deps.config;
  const app = Fastify({
    logger:
      deps.config.logLevel === 'silent'
        ? false
        : {
            level: deps.config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            ...(deps.config.logFormat === 'pretty' ? { stream: prettyStream(process.stdout) } : {}),
          },
    // X-Forwarded-For/-Proto/-Host are believed only from the proxies named in TRUSTED_PROXIES.
    trustProxy: deps.config.trustedProxies.length ? deps.config.trustedProxies : false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: limits.bodyBytes,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node looks for connections past their header/request timeouts (default 30 s).
    http: { connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs) },
    routerOptions: { ignoreTrailingSlash: false, querystringParser: parseQueryString },
  });
  opts.before?.(app);
  // Slow-header clients (slowloris) are cut off; Node wants this no longer than requestTimeout.
  app.server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  app.decorate('deps', deps);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  registerErrorHandlers(app);
  registerSecurityHeaders(app);
  registerRequestLog(app);
  registerIdentification(app);
  registerWebsocketGuard(app);
  registerBodyLimits(app);
  registerRoutePerms(app);
  registerRouteMetadata(app);
  await registerModules(app);
  await opts.extend?.(app);
  await registerConsole(app);
  return app;
}

export interface OpenedDeps extends AppDeps {
  seedResult: SeedResult;
  close(): Promise<void>;
}

/** Opens the database (migrated and seeded) and the cache; each failure names its setting. */
export async function openDeps(config: Config, opts: { pgSchema?: string } = {}): Promise<OpenedDeps> {
  let database: Database;
  try {
    database = await openDatabase(config.databaseUrl, opts);
  } catch (e) {
    throw Object.assign(new Error(`DATABASE_URL: ${(e as Error).message}`), { setting: 'DATABASE_URL' });
  }
  let cache: Cache;
  try {
    cache = await openCache(config.redisUrl, config.redisPrefix);
  } catch (e) {
    await database.close();
    throw Object.assign(new Error(`REDIS_URL: ${(e as Error).message}`), { setting: 'REDIS_URL' });
  }
  let secretBox: SecretBox;
  let bus: Bus;
  try {
    secretBox = openSecretBox(config.dataDir, process.env.GATEHOUSE_SECRET_KEY);
    bus = await openBus(config.redisUrl, config.redisPrefix).catch((e: Error) => {
      throw Object.assign(new Error(`REDIS_URL: ${e.message}`), { setting: 'REDIS_URL' });
    });
  } catch (e) {
    await cache.close();
    await database.close();
    throw e;
  }
  await migrateToLatest(database.db, opts.pgSchema);
  try {
    await checkSharedSecretKey(database.db, secretBox);
  } catch (e) {
    await bus.close();
    await cache.close();
    await database.close();
    throw e;
  }
  const seedResult = await seed(database.db, {
    ...(config.adminPassword ? { adminPassword: config.adminPassword } : {}),
    dataDir: config.dataDir,
  });
  const settings = new SettingsStore(database.db, secretBox);
  await ensureSelfLicence(database.db, settings, config.dataDir);
  return {
    config,
    database,
    cache,
    sessions: new SessionStore(database.db),
    settings,
    bus,
    secretBox,
    seedResult,
    async close() {
      await bus.close();
      await cache.close();
      await database.close();
    },
  };
}
