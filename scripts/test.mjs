#!/usr/bin/env node
// Every test of the project: machine tools; type-check and lint side by side (each is one
// single-threaded process, so together they fill the 2 cores CI has); unit and API tests (SQLite,
// and PostgreSQL when TEST_DATABASE_URL is set) in TEST_WORKERS vitest workers; then browser tests
// in Chromium, E2E_WORKERS files at a time. Both test stages run more workers than cores: most of
// their time is spent waiting (on sshd, on the browser, on timers), not computing. TEST_SERIAL=1
// runs type-check and lint one after the other. Prints each stage's time, the total and the ten
// slowest test files, and ends with one line "tests: N passed, M failed" and a non-zero exit code
// on any failure.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, '.tmp/results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const fileTimes = path.join(results, 'file-times.jsonl');
/** Unit and API workers: twice the cores (measured in docs/testing.md). */
const unitWorkers = process.env.TEST_WORKERS ?? String(2 * os.availableParallelism());

let passed = 0;
let failed = 0;
const summary = [];
const failures = [];

const startedAll = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${label} ===\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, GATEHOUSE_FILE_TIMES: fileTimes, ...env },
  });
  const ok = r.status === 0;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds(started)})`);
  return ok;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) passed++;
  else failed++;
}

/** Runs a check with its output kept until it ends, so checks side by side do not mix their lines. */
function checkBuffered(label, cmd, args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code) => {
      const ok = code === 0;
      process.stdout.write(`\n=== ${label} ===\n${Buffer.concat(out).toString()}`);
      summary.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds(started)}, side by side)`);
      if (ok) passed++;
      else failed++;
      resolve();
    });
  });
}

/** Checks side by side (each single-threaded), or one after the other with TEST_SERIAL=1. */
async function checksSideBySide(checks) {
  if (process.env.TEST_SERIAL === '1') for (const c of checks) check(...c);
  else await Promise.all(checks.map((c) => checkBuffered(...c)));
}

function vitest(label, file, args) {
  const ok = run(label, bin('vitest'), [
    'run',
    ...args,
    '--reporter=default',
    `--reporter=${path.join(root, 'scripts/fileTimes.mjs')}`,
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
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

check('machine tools', 'bash', ['scripts/setup-machine.sh']);
await checksSideBySide([
  ['type-check', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
]);
vitest('unit and API tests', path.join(results, 'unit.json'), [`--maxWorkers=${unitWorkers}`]);
vitest('browser tests', path.join(results, 'e2e.json'), ['--config', 'apps/web/e2e/vitest.config.ts']);

const pagesAtFailure = path.join(results, 'e2e-failures.txt');
if (fs.existsSync(pagesAtFailure))
  failures.push(`  what the browser showed:\n${fs.readFileSync(pagesAtFailure, 'utf8')}`);
if (failures.length) process.stdout.write(`\n=== failed tests ===\n${failures.join('\n')}\n`);
process.stdout.write(`\n=== slowest test files ===\n${slowestFiles(10)}\n`);
process.stdout.write(`\n${summary.join('\n')}\ntotal ${seconds(startedAll)}\n`);
if (!process.env.TEST_DATABASE_URL)
  process.stdout.write('(PostgreSQL suite not run: set TEST_DATABASE_URL=postgres://... to run it)\n');
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
