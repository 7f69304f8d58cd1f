// The layering of docs/architecture.md ("Layers"), enforced by `npm run lint`.
// Arrows point down: a file may import its own layer and the layers below it, never one above.
//   server:  app.ts/main.ts -> modules -> resource -> http -> platform      (everyone -> contract)
//   console: app, shell -> features, entries -> resource -> lib             (everyone -> contract)
// shell/ sits with app/ at the top: it is the frame around pages and draws menus from every feature's routes.
// Tests (`*.test.ts(x)`), the server's test support (`apps/server/test-support/`, outside src/) and the browser
// tests build whole applications, so they are exempt: they may import any layer.
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { cyclesPlugin } from './eslint.cycles.js';

const server = 'apps/server/src';
const web = 'apps/web/src';

/** One zone per layer: `target` (the layer's files) may not import `from` (everything above it). */
function zone(target, from, layer) {
  return {
    target,
    from,
    message: `${layer} sits below what this imports; pass it down through an interface instead (docs/architecture.md, "Layers").`,
  };
}

/**
 * Test support (apps/server/test-support/: test apps, fixtures, fake servers) is for tests, benchmarks
 * and browser tests only; nothing of the product may import it.
 */
export const testSupportZone = {
  target: [server, web],
  from: ['apps/server/test-support'],
  message:
    'apps/server/test-support/ is for tests, benchmarks and browser tests only: production code may not import it (docs/architecture.md, "Layers").',
};

export const layerZones = [
  zone('packages/contract', ['apps'], 'packages/contract is shared by the server and the console: it imports neither'),
  zone(
    `${server}/platform`,
    [`${server}/http`, `${server}/resource`, `${server}/modules`, `${server}/app.ts`, `${server}/main.ts`],
    'server platform/',
  ),
  zone(
    `${server}/http`,
    [`${server}/resource`, `${server}/modules`, `${server}/app.ts`, `${server}/main.ts`],
    'server http/',
  ),
  zone(`${server}/resource`, [`${server}/modules`, `${server}/app.ts`, `${server}/main.ts`], 'server resource/'),
  zone(`${server}/modules`, [`${server}/app.ts`, `${server}/main.ts`], 'server modules/'),
  zone(
    `${web}/lib`,
    [`${web}/resource`, `${web}/features`, `${web}/shell`, `${web}/entries`, `${web}/app`],
    'console lib/',
  ),
  zone(`${web}/resource`, [`${web}/features`, `${web}/shell`, `${web}/entries`, `${web}/app`], 'console resource/'),
  zone([`${web}/features`, `${web}/entries`], [`${web}/app`, `${web}/shell`], 'console features/ and entries/'),
];

/**
 * The server's modules form a stack too, bottom first: a module imports only modules listed before
 * it, so no two modules import each other (users -> authentication, never back). `modules/index.ts`
 * composes them and may import all. A new module takes its place in this list.
 */
export const MODULE_ORDER = [
  'common',
  'apidocs',
  'bootstrap',
  'health',
  'orgs',
  'rbac',
  'xpack',
  'settings',
  'acls',
  'notifications',
  'audits',
  'authentication',
  'ops',
  'users',
  'assets',
  'accounts',
  'perms',
  'terminal',
  'tickets',
  'dashboard',
  'jobs',
  'cloud',
  'automations',
];

export const moduleZones = MODULE_ORDER.slice(0, -1).map((name, i) => ({
  target: `${server}/modules/${name}`,
  from: MODULE_ORDER.slice(i + 1).map((above) => `${server}/modules/${above}`),
  message: `modules/${name} sits below these modules in MODULE_ORDER (eslint.layers.js); pass what it needs in at registration instead.`,
}));

/** The flat-config block: the zones, plus no import cycles among the server's and console's own files. */
export const layersConfig = {
  files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
  ignores: ['**/*.test.ts', '**/*.test.tsx', 'apps/server/test-support/**', 'apps/web/e2e/**'],
  plugins: { 'import-x': importX, gatehouse: cyclesPlugin },
  settings: {
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
  },
  rules: {
    'import-x/no-restricted-paths': ['error', { zones: [testSupportZone, ...layerZones, ...moduleZones] }],
    // Ours (eslint.cycles.js): import-x/no-cycle parsed every imported file again for each file linted.
    'gatehouse/no-cycle': 'error',
  },
};
