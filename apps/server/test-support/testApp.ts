import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { CSRF_COOKIE, LOGIN_PATH } from '@gatehouse/contract';
import { buildApp, openDeps, type BuildOptions, type OpenedDeps } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import { cloneTemplate, TEMPLATE_ADMIN_PASSWORD } from './templates.ts';

export const ADMIN_PASSWORD = TEMPLATE_ADMIN_PASSWORD;

/** Settings that change what migrating and seeding write: an app given one starts from nothing. */
const SEED_SETTINGS = [
  'DATA_DIR',
  'DATABASE_URL',
  'GATEHOUSE_ADMIN_PASSWORD',
  'GATEHOUSE_ADMIN_FIRST_LOGIN',
  'GATEHOUSE_LICENSE_PUBLIC_KEY',
  'GATEHOUSE_SECRET_KEY',
];

/** Which database this run of the API suite uses: SQLite, or PostgreSQL when the project sets it. */
export const TEST_DB: 'sqlite' | 'postgres' = process.env.GATEHOUSE_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  deps: OpenedDeps;
  dataDir: string;
  /** The PostgreSQL schema of this app's database (postgres runs only). */
  pgSchema?: string;
  close(): Promise<void>;
}

async function createSchema(url: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  return {
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

export interface TestAppOptions extends BuildOptions {
  /** Runs on the migrated, seeded database before the app is built (e.g. creating a test's own table). */
  beforeBuild?: (deps: OpenedDeps) => Promise<void>;
  /** Migrate and seed from nothing instead of cloning the run's template (tests of the first start). */
  fresh?: boolean;
}

/**
 * A Gatehouse on a real database of its own: a SQLite file, or (GATEHOUSE_TEST_DB=postgres) a
 * database on the PostgreSQL named by TEST_DATABASE_URL, each a copy of the run's migrated and
 * seeded template (test-support/templates.ts). The admin's password is ADMIN_PASSWORD.
 */
export async function createTestApp(env: Record<string, string> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-test-'));
  let pgSchema: Awaited<ReturnType<typeof createSchema>> | undefined;
  let databaseUrl = `sqlite:${path.join(dataDir, 'gatehouse.sqlite')}`;
  let dropClone: (() => Promise<void>) | undefined;
  const template = opts.fresh || SEED_SETTINGS.some((k) => k in env) ? undefined : inject('databaseTemplate');
  if (template) {
    const clone = await cloneTemplate(
      template,
      dataDir,
      TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
    );
    databaseUrl = clone.databaseUrl;
    dropClone = clone.drop;
  } else if (TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('GATEHOUSE_TEST_DB=postgres needs TEST_DATABASE_URL');
    pgSchema = await createSchema(url);
    databaseUrl = url;
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    GATEHOUSE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    GATEHOUSE_SSH_PORT: '0',
    // Its own Redis keys and channels: files and runs sharing one Redis never see each other's.
    ...(env.REDIS_URL ? { REDIS_PREFIX: `gh-test-${randomBytes(4).toString('hex')}:` } : {}),
    ...env,
  });
  const deps = await openDeps(config, pgSchema ? { pgSchema: pgSchema.schema } : {});
  await opts.beforeBuild?.(deps);
  const { beforeBuild: _, fresh: __, ...buildOpts } = opts;
  const app = await buildApp(deps, buildOpts);
  await app.ready();
  return {
    app,
    deps,
    dataDir,
    ...(pgSchema ? { pgSchema: pgSchema.schema } : {}),
    async close() {
      await app.close();
      await deps.close();
      await pgSchema?.drop();
      await dropClone?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second instance over the same database, data directory and Redis as `t` (scale-out tests).
 * Close it before `t`.
 */
export async function createPeerApp(t: TestApp): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const deps = await openDeps(t.deps.config, t.pgSchema ? { pgSchema: t.pgSchema } : {});
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}

/** Cookies as a browser would keep them across responses. */
export class CookieJar {
  readonly values = new Map<string, string>();

  absorb(res: LightMyRequestResponse): void {
    for (const c of res.cookies) {
      if (
        c.value === '' ||
        (c.maxAge !== undefined && c.maxAge <= 0) ||
        (c.expires && c.expires.getTime() <= Date.now())
      )
        this.values.delete(c.name);
      else this.values.set(c.name, c.value);
    }
  }

  header(): string {
    return [...this.values].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** A browser-like client: keeps cookies and sends the CSRF header on unsafe methods. */
export class SessionClient {
  readonly jar = new CookieJar();

  constructor(readonly app: FastifyInstance) {}

  async request(
    opts: Omit<InjectOptions, 'method'> & { method: string; url: string },
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    if (this.jar.values.size && !headers.cookie) headers.cookie = this.jar.header();
    const csrf = this.jar.values.get(CSRF_COOKIE);
    if (csrf && !['GET', 'HEAD', 'OPTIONS'].includes(opts.method) && !('x-csrftoken' in headers))
      headers['x-csrftoken'] = csrf;
    const res = await this.app.inject({ ...opts, method: opts.method as InjectOptions['method'], headers });
    this.jar.absorb(res);
    return res;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload?: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers });
  }

  patch(url: string, payload?: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'PATCH', url, payload: payload as InjectOptions['payload'], headers });
  }

  /** Opens the login page (for its CSRF cookie), then signs in. */
  async login(
    username: string,
    password: string,
    extra: Record<string, unknown> = {},
  ): Promise<LightMyRequestResponse> {
    await this.get(LOGIN_PATH);
    return this.post(LOGIN_PATH, { username, password, ...extra });
  }
}

/** A client signed in as the seeded admin. */
export async function adminClient(app: FastifyInstance): Promise<SessionClient> {
  const c = new SessionClient(app);
  const res = await c.login('admin', ADMIN_PASSWORD);
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.body}`);
  return c;
}
