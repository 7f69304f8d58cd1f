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
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT', 'is not a number'],
    [{ PORT: '70000' }, 'PORT', 'out of range'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', 'unsupported scheme'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL', 'needs a file path'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL', 'redis://'],
    [{ GATEHOUSE_ADMIN_PASSWORD: 'abc' }, 'GATEHOUSE_ADMIN_PASSWORD', 'at least 6'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', 'must be one of'],
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
  });
});
