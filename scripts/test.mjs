#!/usr/bin/env node
// Every test of the project, keeping the 2 cores of CI busy (docs/testing.md): machine tools; then
// side by side the browser tests (Chromium against real servers, E2E_WORKERS files at a time, mostly
// waiting on the browser) and, in a second lane, type-check and lint (each one single-threaded,
// CPU-bound process) followed by the unit and API tests (SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set) in TEST_WORKERS vitest workers, more than the cores: much of their time
// is spent waiting on sshd and timers.
// Output of steps side by side is kept until each ends, so their lines do not mix. TEST_SERIAL=1
// runs every step one after the other. Prints each step's time, the total and the ten slowest test
// files, and ends with one line "tests: N passed, M failed" and a non-zero exit code on any failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, '.tmp/results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const fileTimes = path.join(results, 'file-times.jsonl');
const cores = os.availableParallelism();
const unitWorkers = process.env.TEST_WORKERS ?? String(Math.max(2, Math.round(1.5 * cores)));
const e2eWorkers = process.env.E2E_WORKERS ?? String(Math.max(2, Math.round(1.5 * cores)));
const serial = process.env.TEST_SERIAL === '1';

let passed = 0;
let failed = 0;
const summary = [];
const failures = [];

const startedAll = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * Runs one step. `buffered`: its output is printed when it ends (steps side by side); otherwise it
 * streams. Resolves to whether it exited 0.
 */
function step(label, cmd, args, { buffered = false, env = {} } = {}) {
  const started = Date.now();
  if (!buffered) process.stdout.write(`\n=== ${label} ===\n`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, GATEHOUSE_FILE_TIMES: fileTimes, ...env },
    });
    const out = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr?.on('data', (d) => out.push(d));
    child.on('close', (code) => {
      const ok = code === 0;
      if (buffered) process.stdout.write(`\n=== ${label} ===\n${Buffer.concat(out).toString()}`);
      summary.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds(started)}${buffered ? ', side by side' : ''})`);
      resolve(ok);
    });
  });
}

/** A check that counts as one test. */
async function check(label, cmd, args, opts) {
  if (await step(label, cmd, args, opts)) passed++;
  else failed++;
}

/** A vitest run whose tests count one by one (its JSON report), with its failures named at the end. */
async function vitest(label, args, opts) {
  const file = path.join(results, `${label.replace(/\W+/g, '-')}.json`);
  const ok = await step(
    label,
    bin('vitest'),
    [
      'run',
      ...args,
      `--reporter=${opts?.buffered ? 'dot' : 'default'}`,
      `--reporter=${path.join(root, 'scripts/fileTimes.mjs')}`,
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    opts,
  );
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (ok || r.numFailedTests > 0 ? 0 : 1);
    if (r.numTotalTests === 0) failed++;
    failures.push(...failuresOf(r));
  } catch {
    failed++;
  }
}

/** The failed tests of a vitest JSON report (file, name, the first lines of the error), so the end
 * of the output names them even when only its tail is kept. */
function failuresOf(report) {
  const lines = [];
  const excerpt = (text) =>
    String(text ?? '')
      .split('\n')
      .slice(0, 6)
      .map((l) => `      ${l}`)
      .join('\n');
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests)
      lines.push(`  ${where} › ${t.fullName} (${Math.round(t.duration ?? 0)} ms)\n${excerpt(t.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedTests.length === 0)
      lines.push(`  ${where} (the file failed outside its tests)\n${excerpt(file.message)}`);
  }
  return lines;
}

/** The `n` slowest test files of both stages, from scripts/fileTimes.mjs. */
function slowestFiles(n) {
  if (!fs.existsSync(fileTimes)) return '  (none recorded)';
  return fs
    .readFileSync(fileTimes, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.project.padEnd(24)} ${t.file}`)
    .join('\n');
}

/** Runs steps side by side, or one after the other with TEST_SERIAL=1. */
async function sideBySide(steps) {
  if (serial) for (const s of steps) await s({ buffered: false });
  else await Promise.all(steps.map((s) => s({ buffered: true })));
}

await check('machine tools', 'bash', ['scripts/setup-machine.sh']);
// The browser tests run from the start to the end; the unit and API tests start once type-check and
// lint are done, beside the browser tests still running: one after the other, the run used 1.15 of
// the 2 cores on average (CPU time over wall time of a whole run), both stages waiting on servers.
await sideBySide([
  (o) =>
    vitest(`browser tests (${e2eWorkers} workers)`, ['--config', 'apps/web/e2e/vitest.config.ts'], {
      ...o,
      env: { E2E_WORKERS: e2eWorkers },
    }),
  async (o) => {
    await sideBySide([
      (p) => check('type-check', 'npm', ['run', '--silent', 'typecheck'], p),
      (p) => check('lint', 'npm', ['run', '--silent', 'lint'], p),
    ]);
    await vitest(`unit and API tests (${unitWorkers} workers)`, [`--maxWorkers=${unitWorkers}`], o);
  },
]);

// What the browser showed first (long), then the failures, then the names alone: whoever keeps only
// the tail of the output still sees which tests failed.
const pagesAtFailure = path.join(results, 'e2e-failures.txt');
if (fs.existsSync(pagesAtFailure))
  process.stdout.write(`\n=== what the browser showed ===\n${fs.readFileSync(pagesAtFailure, 'utf8')}\n`);
if (failures.length) process.stdout.write(`\n=== failed tests ===\n${failures.join('\n')}\n`);
process.stdout.write(`\n=== slowest test files ===\n${slowestFiles(10)}\n`);
process.stdout.write(`\n${summary.join('\n')}\ntotal ${seconds(startedAll)}\n`);
for (const f of failures) process.stdout.write(`failed: ${f.split('\n')[0].trim()}\n`);
if (!process.env.TEST_DATABASE_URL)
  process.stdout.write('(PostgreSQL suite not run: set TEST_DATABASE_URL=postgres://... to run it)\n');
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
