import { defineConfig } from 'vitest/config';

/**
 * Unit and API tests. The API suite runs on SQLite, and again on PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Browser tests have their own config (apps/web/e2e).
 */
/**
 * Files that replace a module with `vi.mock` need a module graph of their own; every other server
 * file shares its worker's (see `isolate` below).
 */
const MOCKING_FILES = [
  'src/modules/authentication/loginSecurity.test.ts',
  'src/modules/authentication/loginRace.redis.test.ts',
];

/**
 * Server files whose behaviour does not depend on the database, run on SQLite only: pure logic
 * (no app, or an app only for its HTTP layer), and gateway protocol tests whose only database work
 * is the session and command rows that gatewaySession, nativeSsh, sessionControl and crashRecovery
 * check on PostgreSQL too. A file that reads or filters data with SQL of its own does not belong here.
 */
const DATABASE_NEUTRAL = [
  'src/platform/**',
  'src/main.test.ts',
  'src/http/datetime.test.ts',
  'src/http/console.test.ts',
  'src/http/securityHeaders.api.test.ts',
  'src/modules/apidocs/*.test.ts',
  'src/modules/acls/matcher/*.test.ts',
  'src/modules/ops/taskLog.test.ts',
  'src/modules/ops/ansible/*.test.ts',
  'src/modules/settings/settingValidate.test.ts',
  'src/modules/tickets/stateMachine.test.ts',
  'src/modules/terminal/gateway/*.test.ts',
  'src/modules/terminal/ssh/clientLanguage.test.ts',
  'src/modules/terminal/ssh/hostKey.test.ts',
  'src/modules/terminal/slowLink.api.test.ts',
  'src/modules/terminal/echoHiccup.api.test.ts',
  'src/modules/terminal/webTerminalOutput.api.test.ts',
  'src/modules/terminal/k8s/k8sSession.api.test.ts',
  'src/modules/terminal/sftp/nativeSftp.api.test.ts',
];

/**
 * Files about several instances sharing PostgreSQL and Redis (a killed instance, the soak's short
 * version): they need PostgreSQL, so the SQLite pass leaves them out instead of listing them skipped.
 */
const POSTGRES_ONLY = ['src/modules/terminal/deadInstance.redis.test.ts', 'src/scaleout.soak.redis.test.ts'];

const serverProject = (name: string, db: 'sqlite' | 'postgres', isolated: boolean) => ({
  test: {
    name: isolated ? `${name}-isolated` : name,
    root: './apps/server',
    include: isolated ? MOCKING_FILES : ['src/**/*.test.ts'],
    exclude: [...(db === 'postgres' ? DATABASE_NEUTRAL : POSTGRES_ONLY), ...(isolated ? [] : MOCKING_FILES)],
    environment: 'node',
    env: { GATEHOUSE_TEST_DB: db },
    // The run's migrated, seeded database that test apps clone, and the tests' password cost.
    globalSetup: ['./test-support/globalSetup.ts'],
    setupFiles: ['./test-support/setup.ts'],
    // Importing the server (Fastify, Kysely, every module) is most of a file's time; with
    // `isolate: false` a worker imports it once for all the files it runs instead of once per file.
    // Each file still builds its own app on its own database (test-support/testApp.ts), so no state is
    // shared through the database; module-level state is the registries the app fills at start-up.
    isolate: isolated,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for an event (a socket message, a session row); 1 s is vitest's default,
    // which more workers than cores overrun without anything being wrong.
    expect: { poll: { timeout: 15_000 } },
  },
});

const serverProjects = (name: string, db: 'sqlite' | 'postgres') => [
  serverProject(name, db, false),
  serverProject(name, db, true),
];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: './packages/contract', include: ['src/**/*.test.ts'], environment: 'node' } },
      // The lint rules' own tests (eslint.layers.test.js) and the scripts' (scripts/*.test.mjs).
      // ESLint over in-memory sources takes seconds on a busy machine: the default 5 s is too short.
      {
        test: {
          name: 'tooling',
          root: '.',
          include: ['*.test.js', 'scripts/*.test.mjs'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      ...serverProjects('server-sqlite', 'sqlite'),
      ...(process.env.TEST_DATABASE_URL ? serverProjects('server-postgres', 'postgres') : []),
      {
        extends: './apps/web/vite.config.ts',
        // Vitest loads `antd` as its CommonJS build (lib/), the bundler as its ES build (es/): deep imports
        // of antd/es (lib/LazyApp.tsx) must name the same modules here, or `App.useApp()` and LazyApp
        // would read two different contexts.
        resolve: { alias: [{ find: /^antd\/es\/(.*)$/, replacement: 'antd/lib/$1' }] },
        test: { name: 'web', root: './apps/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
    ],
  },
});
