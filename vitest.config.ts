import { defineConfig } from 'vitest/config';

/**
 * Unit and API tests. The API suite runs on SQLite, and again on PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Browser tests have their own config (apps/web/e2e).
 */
const serverProject = (name: string, db: 'sqlite' | 'postgres') => ({
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts'],
    // Database-free suites (config, crypto, cache, the CLI) run once, in the SQLite project.
    exclude: db === 'postgres' ? ['src/platform/**', 'src/main.test.ts'] : [],
    environment: 'node',
    env: { GATEHOUSE_TEST_DB: db },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: './packages/contract', include: ['src/**/*.test.ts'], environment: 'node' } },
      // The lint rules' own tests (eslint.layers.test.js).
      { test: { name: 'tooling', root: '.', include: ['*.test.js'], environment: 'node' } },
      serverProject('server-sqlite', 'sqlite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
      {
        extends: './apps/web/vite.config.ts',
        test: { name: 'web', root: './apps/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
    ],
  },
});
