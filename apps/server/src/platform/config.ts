import path from 'node:path';
import { loadLimits, parseTrustedProxies, type Limits } from './limitsConfig.ts';
import { ConfigError } from './configError.ts';
import { loadJobsConfig, type JobsConfig } from './jobsConfig.ts';
import { loadGatewayConfig, type GatewayConfig } from './gatewayConfig.ts';

/** Gatehouse's runtime configuration, read from the environment. */
export interface Config {
  host: string;
  port: number;
  /** `GATEHOUSE_SSH_PORT`: the native SSH server's port on `host` (default 2222; 0 = no SSH server). */
  sshPort: number;
  /** `GATEHOUSE_POSTGRESQL_PORT`: the PostgreSQL proxy's port on `host` (default 0: off). */
  postgresqlPort: number;
  /** `GATEHOUSE_MYSQL_PORT`: the MySQL/MariaDB proxy's port on `host` (default 0: off). */
  mysqlPort: number;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://...`. */
  databaseUrl: string;
  redisUrl: string | undefined;
  /** `REDIS_PREFIX`: what every Redis key and channel of this deployment starts with (default `gatehouse:`). */
  redisPrefix: string;
  adminPassword: string | undefined;
  /** Directory holding the built console (apps/web/dist). */
  webDist: string;
  logLevel: string;
  /** LOG_FORMAT: `pretty` lines for a person (default on a terminal) or `json` (default elsewhere). */
  logFormat: 'pretty' | 'json';
  /** An operator's licence public key (PEM or base64 of PEM); licences it signed are trusted. */
  licensePublicKey: string | undefined;
  /** `GATEHOUSE_DEBUG=1`: development aids (the SQL count to any caller who asks for it). */
  debug: boolean;
  /** Proxies whose `X-Forwarded-For`/`-Proto`/`-Host` are believed (none by default). */
  trustedProxies: string[];
  limits: Limits;
  /** The execution engine's concurrency and clock (`JOB_*`, platform/jobsConfig.ts). */
  jobs: JobsConfig;
  /** The gateway's heartbeat and recording stream (`GATEWAY_HEARTBEAT_MS`, `REPLAY_STREAM_MS`, platform/gatewayConfig.ts). */
  gateway: GatewayConfig;
}

export { ConfigError };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parsePort(raw: string | undefined, name = 'PORT', fallback = 8080): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `"${raw}" is not a number; use a port between 0 and 65535`);
  const port = Number(raw);
  if (port > 65535) throw new ConfigError(name, `${port} is out of range; use a port between 0 and 65535`);
  return port;
}

function parseDatabaseUrl(raw: string | undefined, dataDir: string): string {
  if (!raw) return `sqlite:${path.join(dataDir, 'gatehouse.sqlite')}`;
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return raw;
  }
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!file) throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./data/gatehouse.sqlite');
    return `sqlite:${path.resolve(file)}`;
  }
  throw new ConfigError(
    'DATABASE_URL',
    `unsupported scheme in "${raw.split(':')[0]}:"; use sqlite:<file> or postgres://...`,
  );
}

function parseRedisUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  try {
    new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL', 'is not a valid URL');
  }
  return raw;
}

function parseRedisPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'gatehouse:';
  if (!/^[\w.:-]{1,64}$/.test(raw))
    throw new ConfigError('REDIS_PREFIX', 'must be 1 to 64 letters, digits or the characters _ . : -');
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const host = env.HOST || '127.0.0.1';
  const port = parsePort(env.PORT);
  const sshPort = parsePort(env.GATEHOUSE_SSH_PORT, 'GATEHOUSE_SSH_PORT', 2222);
  const postgresqlPort = parsePort(env.GATEHOUSE_POSTGRESQL_PORT, 'GATEHOUSE_POSTGRESQL_PORT', 0);
  const mysqlPort = parsePort(env.GATEHOUSE_MYSQL_PORT, 'GATEHOUSE_MYSQL_PORT', 0);
  const dataDir = path.resolve(cwd, env.DATA_DIR || './data');
  const databaseUrl = parseDatabaseUrl(env.DATABASE_URL, dataDir);
  const redisUrl = parseRedisUrl(env.REDIS_URL);
  const redisPrefix = parseRedisPrefix(env.REDIS_PREFIX);
  const adminPassword = env.GATEHOUSE_ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 6) {
    throw new ConfigError('GATEHOUSE_ADMIN_PASSWORD', 'must be at least 6 characters long');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError('LOG_FORMAT', 'must be json or pretty');
  const webDist = path.resolve(env.GATEHOUSE_WEB_DIST || path.join(import.meta.dirname, '../../../web/dist'));
  const licensePublicKey = env.GATEHOUSE_LICENSE_PUBLIC_KEY || undefined;
  const debug = ['1', 'true', 'yes', 'on'].includes((env.GATEHOUSE_DEBUG ?? '').toLowerCase());
  const trustedProxies = parseTrustedProxies(env.TRUSTED_PROXIES);
  const limits = loadLimits(env);
  const jobs = loadJobsConfig(env);
  const gateway = loadGatewayConfig(env);
  return {
    host,
    port,
    sshPort,
    postgresqlPort,
    mysqlPort,
    dataDir,
    databaseUrl,
    redisUrl,
    redisPrefix,
    adminPassword,
    webDist,
    logLevel,
    logFormat,
    licensePublicKey,
    debug,
    trustedProxies,
    limits,
    jobs,
    gateway,
  };
}
