import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from './build-web.mjs';

/**
 * The console's build (scripts/build-web.mjs) on a checkout of its own with a one-page console:
 * a current build is reused, a changed source gets a new build that apps/web/dist switches to while
 * the previous one stays for instances serving it, and two builds started at once both end on a
 * complete build.
 */
const repo = path.resolve(import.meta.dirname, '..');
let root;
const dist = () => path.join(root, 'apps/web/dist');
const page = (text) =>
  fs.writeFileSync(
    path.join(root, 'apps/web/index.html'),
    `<!doctype html><html><body><script type="module" src="/src/main.js"></script>${text}</body></html>`,
  );

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-build-web-'));
  fs.mkdirSync(path.join(root, 'apps/web/src'), { recursive: true });
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'));
  fs.writeFileSync(path.join(root, 'package-lock.json'), '{}');
  fs.writeFileSync(path.join(root, 'apps/web/src/main.js'), 'document.body.dataset.v = "1";\n');
  page('one');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the console build', () => {
  it('builds once, then reuses the build while the sources are unchanged', () => {
    const first = buildWeb({ root, quiet: true });
    expect(fs.realpathSync(dist())).toBe(first);
    expect(fs.readFileSync(path.join(dist(), 'index.html'), 'utf8')).toContain('one');
    const builtAt = fs.statSync(path.join(first, 'index.html')).mtimeMs;
    expect(buildWeb({ root, quiet: true })).toBe(first);
    expect(fs.statSync(path.join(first, 'index.html')).mtimeMs).toBe(builtAt);
  }, 60_000);

  it('builds anew when a source changes, switches dist to it and keeps the previous build', () => {
    const before = fs.realpathSync(dist());
    fs.writeFileSync(path.join(root, 'apps/web/src/main.js'), 'document.body.dataset.v = "2";\n');
    const after = buildWeb({ root, quiet: true });
    expect(after).not.toBe(before);
    expect(fs.realpathSync(dist())).toBe(after);
    expect(fs.lstatSync(dist()).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(path.join(before, 'index.html'))).toBe(true);
  }, 60_000);

  it('ends on a complete build when two builds of new sources run at once', async () => {
    page('two at once');
    const script = path.join(repo, 'scripts/build-web.mjs');
    const once = () =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `import { buildWeb } from ${JSON.stringify(script)}; buildWeb({ root: ${JSON.stringify(root)}, quiet: true });`,
          ],
          { stdio: 'ignore' },
        );
        child.on('close', resolve);
      });
    expect(await Promise.all([once(), once()])).toEqual([0, 0]);
    expect(fs.readFileSync(path.join(dist(), 'index.html'), 'utf8')).toContain('two at once');
    expect(fs.readdirSync(path.join(root, 'apps/web/.builds')).filter((d) => d.includes('.tmp-'))).toEqual([]);
  }, 60_000);
});
