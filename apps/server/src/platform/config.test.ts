import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const fail = (env: Record<string, string>) => {
  try {
    loadConfig(env, '/srv');
  } catch (e) {
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration from the environment', () => {
  it('defaults to 127.0.0.1:8080 and a SQLite file in ./data', () => {
    const c = loadConfig({}, '/srv');
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: '/srv/data',
      databaseUrl: `sqlite:${path.join('/srv/data', 'gatehouse.sqlite')}`,
    });
    expect(c.redisUrl).toBeUndefined();
    // The database proxies are off until their ports are set.
    expect(c).toMatchObject({ postgresqlPort: 0, mysqlPort: 0 });
    expect(loadConfig({ GATEHOUSE_POSTGRESQL_PORT: '54320', GATEHOUSE_MYSQL_PORT: '33061' }, '/srv')).toMatchObject({
      postgresqlPort: 54320,
      mysqlPort: 33061,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT', 'is not a number'],
    [{ PORT: '70000' }, 'PORT', 'out of range'],
    [{ GATEHOUSE_MYSQL_PORT: 'x' }, 'GATEHOUSE_MYSQL_PORT', 'is not a number'],
    [{ GATEHOUSE_POSTGRESQL_PORT: '99999' }, 'GATEHOUSE_POSTGRESQL_PORT', 'out of range'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', 'unsupported scheme'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL', 'needs a file path'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL', 'redis://'],
    [{ REDIS_PREFIX: 'gate house' }, 'REDIS_PREFIX', 'letters, digits'],
    [{ GATEHOUSE_ADMIN_PASSWORD: 'abc' }, 'GATEHOUSE_ADMIN_PASSWORD', 'at least 6'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', 'must be one of'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT', 'must be json or pretty'],
    [{ LIMIT_SPM_IDS: 'many' }, 'LIMIT_SPM_IDS', 'not a positive whole number'],
    [{ IMPORT_MAX_ROWS: '0' }, 'IMPORT_MAX_ROWS', 'not a positive whole number'],
    [{ TRUSTED_PROXIES: '10.0.0.1, proxy.example' }, 'TRUSTED_PROXIES', 'not an IP address or CIDR range'],
  ])('%o is refused with a message naming %s', (env, setting, problem) => {
    const e = fail(env);
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message.startsWith(`${setting}: `)).toBe(true);
    expect(e.message).toContain(problem);
  });

  it('accepts postgres and redis URLs as given', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/gh', REDIS_URL: 'redis://cache:6379/1' }, '/srv');
    expect(c.databaseUrl).toBe('postgres://u@db:5432/gh');
    expect(c.redisUrl).toBe('redis://cache:6379/1');
    expect(c.redisPrefix).toBe('gatehouse:');
    expect(loadConfig({ REDIS_PREFIX: 'site-b:' }, '/srv').redisPrefix).toBe('site-b:');
  });

  it('reads the limits and the trusted proxies, with defaults for what is not set', () => {
    const c = loadConfig({ LIMIT_WEBSOCKETS_PER_USER: '3', TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16' }, '/srv');
    expect(c.limits.websocketsPerUser).toBe(3);
    expect(c.limits.anonymousBodyBytes).toBe(64 * 1024);
    expect(c.trustedProxies).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(c.debug).toBe(false);
    expect(loadConfig({ GATEHOUSE_DEBUG: '1' }, '/srv').debug).toBe(true);
  });
});
