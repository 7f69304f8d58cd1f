#!/usr/bin/env node
// Builds the console when its sources changed since the last build, and only then.
//
// Each build goes to a folder of its own, apps/web/.builds/<fingerprint of the sources>, and
// apps/web/dist is a symbolic link switched to it in one rename once it is complete: an instance
// serving the console never sees a half-written build, and two instances started from one checkout
// do not undo each other. A current build is reused (`npm start` and the browser tests build at most
// once). The two builds before the current one are kept for instances still serving them.
// Prints the folder of the current build on its last line.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEEP = 3;

/** The folders of a checkout (`root`: the repository; tests pass a folder of their own). */
function layout(root) {
  const web = path.join(root, 'apps/web');
  return { root, web, builds: path.join(web, '.builds'), dist: path.join(web, 'dist') };
}

/** What the build reads: the console's sources and config, the shared contract, the locked packages. */
const INPUTS = ['apps/web/src', 'apps/web/public', 'apps/web/build', 'packages/contract/src', 'package-lock.json'];
const WEB_FILES = /^(?:[^/]+\.html|vite\.config\.ts|package\.json|tsconfig\.json)$/;

function filesUnder(root, rel) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [rel];
  return fs
    .readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

export function fingerprint(root) {
  const { web } = layout(root);
  const files = [
    ...INPUTS.flatMap((rel) => filesUnder(root, rel)),
    ...fs
      .readdirSync(web)
      .filter((f) => WEB_FILES.test(f))
      .map((f) => `apps/web/${f}`),
  ].sort();
  const h = createHash('sha256');
  for (const f of files)
    h.update(`${f}\0`)
      .update(fs.readFileSync(path.join(root, f)))
      .update('\0');
  return h.digest('hex').slice(0, 16);
}

/** Points apps/web/dist at `target` in one step (a new link renamed over the old one). */
function switchTo({ web, dist }, target) {
  const next = `${dist}.next-${process.pid}`;
  fs.rmSync(next, { force: true });
  fs.symlinkSync(path.relative(web, target), next);
  // A real folder left by an older build cannot be renamed over: it goes first.
  if (fs.existsSync(dist) && !fs.lstatSync(dist).isSymbolicLink()) fs.rmSync(dist, { recursive: true, force: true });
  fs.renameSync(next, dist);
}

function pruneOld({ builds }, current) {
  const done = fs
    .readdirSync(builds)
    .filter((d) => /^[0-9a-f]{16}$/.test(d) && d !== current)
    .map((d) => ({ d, t: fs.statSync(path.join(builds, d)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { d } of done.slice(KEEP - 1)) fs.rmSync(path.join(builds, d), { recursive: true, force: true });
  // Unfinished builds of processes that are gone.
  for (const d of fs.readdirSync(builds).filter((x) => /\.tmp-\d+$/.test(x))) {
    const pid = Number(d.split('.tmp-')[1]);
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) fs.rmSync(path.join(builds, d), { recursive: true, force: true });
  }
}

export function buildWeb({ root = path.resolve(import.meta.dirname, '..'), quiet = false } = {}) {
  const where = layout(root);
  const { web, builds } = where;
  const id = fingerprint(root);
  const out = path.join(builds, id);
  fs.mkdirSync(builds, { recursive: true });
  if (!fs.existsSync(path.join(out, 'index.html'))) {
    const tmp = `${out}.tmp-${process.pid}`;
    // NODE_ENV=production: a caller under Vitest (NODE_ENV=test) would otherwise get React's development build.
    const r = spawnSync(
      path.join(root, 'node_modules/.bin/vite'),
      ['build', '--logLevel', quiet ? 'error' : 'warn', '--outDir', tmp, '--emptyOutDir'],
      { cwd: web, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
    );
    if (r.status !== 0) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw new Error('the console build failed (vite build)');
    }
    // Another process may have finished the same build meanwhile: either copy is the same.
    if (fs.existsSync(out)) fs.rmSync(tmp, { recursive: true, force: true });
    else fs.renameSync(tmp, out);
  } else if (!quiet) process.stdout.write(`console build ${id} is current\n`);
  const now = new Date();
  fs.utimesSync(out, now, now);
  switchTo(where, out);
  pruneOld(where, id);
  return out;
}

if (process.argv[1] === import.meta.filename) {
  try {
    process.stdout.write(`${buildWeb()}\n`);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
