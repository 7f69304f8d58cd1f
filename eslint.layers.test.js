// The layer rules of eslint.layers.js catch imports against the arrows (docs/architecture.md, "Layers").
// Each case lints an in-memory source as if it lived at the given path; imports resolve against the real tree.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { MODULE_ORDER, layersConfig } from './eslint.layers.js';
import { cyclesPlugin } from './eslint.cycles.js';

const root = import.meta.dirname;
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, layersConfig],
});

/** The layer and cycle errors of `source` linted as the file `filePath`. */
async function layerErrors(filePath, source) {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, filePath) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layer rules', () => {
  it.each([
    ['apps/server/src/http/bad.ts', "import { findActiveUser } from '../modules/authentication/userLookup.ts';"],
    [
      'apps/server/src/platform/db/migrations/m9999_bad.ts',
      "import { PROTOCOLS } from '../../../modules/assets/protocolDefaults.ts';",
    ],
    ['apps/server/src/platform/bad.ts', "import { sessionOverLimits } from '../http/sessionLimits.ts';"],
    ['apps/server/src/resource/bad.ts', "import { buildProfile } from '../modules/users/profile.ts';"],
    ['apps/server/src/modules/authentication/bad.ts', "import { buildProfile } from '../users/profile.ts';"],
    ['apps/server/src/modules/xpack/bad.ts', "import { SettingsStore } from '../settings/store.ts';"],
    ['packages/contract/src/bad.ts', "import { http } from '../../../apps/web/src/lib/http.ts';"],
    ['apps/web/src/lib/bad.ts', "import { ResourceList } from '../resource/ResourceList.tsx';"],
    ['apps/web/src/resource/bad.ts', "import { App } from '../app/App.tsx';"],
    ['apps/web/src/resource/bad2.ts', "import { Layout } from '../shell/Layout.tsx';"],
    ['apps/web/src/features/bad.ts', "import { VIEW_ROUTES } from '../app/viewRoutes.ts';"],
    ['apps/web/src/entries/login/bad.ts', "import { Layout } from '../../shell/Layout.tsx';"],
  ])('%s may not import upwards', async (file, source) => {
    const errors = await layerErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^import-x\/no-restricted-paths: .*docs\/architecture\.md|MODULE_ORDER/);
  });

  it.each([
    ['apps/server/src/modules/ops/bad.ts', "import { startSshd } from '../../../test-support/sshd.ts';"],
    ['apps/server/src/app2.ts', "import { createTestApp } from '../test-support/testApp.ts';"],
    ['apps/web/src/lib/bad.ts', "import { startSshd } from '../../../server/test-support/sshd.ts';"],
    // By the package's name, as the browser tests import it (node_modules/@gatehouse/server is the workspace).
    ['apps/web/src/features/bad.ts', "import { startSshd } from '@gatehouse/server/test-support/sshd.ts';"],
  ])('%s (production code) may not import test support', async (file, source) => {
    const errors = await layerErrors(file, source);
    expect(errors).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*apps\/server\/test-support\/ is for tests/),
    ]);
  });

  it.each([
    ['apps/server/src/modules/ops/ok.test.ts', "import { startSshd } from '../../../test-support/sshd.ts';"],
    [
      'apps/server/test-support/ok.ts',
      "import { buildProfile } from '../src/modules/users/profile.ts';\nimport { createTestApp } from './testApp.ts';",
    ],
  ])('%s (a test or test support) may import test support and any layer', async (file, source) => {
    expect(await layerErrors(file, source)).toEqual([]);
  });

  it.each([
    ['apps/server/src/modules/users/ok.ts', "import { findActiveUser } from '../authentication/userLookup.ts';"],
    ['apps/server/src/modules/index2.ts', "import { buildProfile } from './users/profile.ts';"],
    ['apps/server/src/http/ok.ts', "import { QueryCounter } from '../platform/db/queryCounter.ts';"],
    ['apps/server/src/http/ok.test.ts', "import { buildProfile } from '../modules/users/profile.ts';"],
    [
      'apps/web/src/features/ok.ts',
      "import { useAppStore } from '../lib/appStore.ts';\nimport { ResourceList } from '../resource/ResourceList.tsx';",
    ],
    ['apps/web/src/shell/ok.ts', "import { VIEW_ROUTES } from '../app/viewRoutes.ts';"],
    ['apps/web/src/app/ok.ts', "import { Layout } from '../shell/Layout.tsx';"],
  ])('%s may import downwards', async (file, source) => {
    expect(await layerErrors(file, source)).toEqual([]);
  });

  it('refuses an import cycle between files', async () => {
    // identify.ts imports datetime.ts; a datetime.ts importing identify.ts closes the loop.
    const errors = await layerErrors(
      'apps/server/src/http/datetime.ts',
      "import { tokenCacheKey } from './identify.ts';",
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^gatehouse\/no-cycle: Import cycle: apps\/server\/src\/http\/identify\.ts imports this file again/,
      ),
    ]);
  });

  it('places every server module in MODULE_ORDER', () => {
    const modules = fs
      .readdirSync(path.join(root, 'apps/server/src/modules'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect([...MODULE_ORDER].sort()).toEqual(modules.sort());
  });
});

describe('gatehouse/no-cycle on files on disk', () => {
  it('names both ends of a cycle, and neither a file that only leads into one nor a type-only import', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cycles-'));
    try {
      const files = {
        'a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
        'b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
        'c.ts': "import { a } from './a.ts';\nexport const c = a;\n",
        'd.ts': "import { e } from './e.ts';\nexport type D = { n: number };\nexport const d = e;\n",
        'e.ts':
          "import type { D } from './d.ts';\nexport { type D as F } from './d.ts';\nexport const e = (x: D) => x;\n",
      };
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
      const lint = new ESLint({
        cwd: dir,
        overrideConfigFile: true,
        overrideConfig: [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: tseslint.parser },
            plugins: { gatehouse: cyclesPlugin },
            rules: { 'gatehouse/no-cycle': 'error' },
          },
        ],
      });
      const results = await lint.lintFiles(Object.keys(files).map((f) => path.join(dir, f)));
      const errors = results.flatMap((r) => r.messages.map((m) => `${path.basename(r.filePath)}: ${m.message}`));
      expect(errors).toEqual([
        'a.ts: Import cycle: b.ts imports this file again. Move what both need into a third file below them.',
        'b.ts: Import cycle: a.ts imports this file again. Move what both need into a third file below them.',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
