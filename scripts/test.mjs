#!/usr/bin/env node
// Every test of the project, in order: machine tools, type-check, lint, unit and API tests
// (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), then browser tests in Chromium.
// Ends with one line "tests: N passed, M failed" and a non-zero exit code on any failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, '.tmp/results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);

let passed = 0;
let failed = 0;
const summary = [];

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${label} ===\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) passed++;
  else failed++;
}

function vitest(label, file, args) {
  const ok = run(label, bin('vitest'), [
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + (ok || r.numFailedTests > 0 ? 0 : 1);
    if (r.numTotalTests === 0) failed++;
  } catch {
    failed++;
  }
}

check('machine tools', 'bash', ['scripts/setup-machine.sh']);
check('type-check', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npm', ['run', '--silent', 'lint']);
vitest('unit and API tests', path.join(results, 'unit.json'), []);
vitest('browser tests', path.join(results, 'e2e.json'), ['--config', 'apps/web/e2e/vitest.config.ts']);

process.stdout.write(`\n${summary.join('\n')}\n`);
if (!process.env.TEST_DATABASE_URL)
  process.stdout.write('(PostgreSQL suite not run: set TEST_DATABASE_URL=postgres://... to run it)\n');
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
