import { runSoak } from './soak.ts';

/**
 * `npm run soak`: issue 33's full soak (bench/soak/soak.ts) on PostgreSQL (SOAK_DATABASE_URL or
 * TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), Redis (SOAK_REDIS_URL or
 * TEST_REDIS_URL, default redis://127.0.0.1:6379) and Debian's haproxy. SOAK_SECONDS (60),
 * SOAK_RATE (300), SOAK_WEB (50), SOAK_SSH (20) change its size. Exits 1 when a check fails.
 */
const env = (k: string, d: number) => Number(process.env[k] ?? d);
const seconds = env('SOAK_SECONDS', 60);
const report = await runSoak({
  seconds,
  killAtMs: (seconds * 1000) / 2,
  rate: env('SOAK_RATE', 300),
  webSessions: env('SOAK_WEB', 50),
  sshSessions: env('SOAK_SSH', 20),
  throughputMs: env('SOAK_THROUGHPUT_MS', 10_000),
  log: (l) => process.stdout.write(`${l}\n`),
});
for (const u of report.unheld) process.stdout.write(`not reached: ${u}\n`);
for (const f of report.failures) process.stdout.write(`FAILED: ${f}\n`);
process.stdout.write(
  report.failures.length
    ? 'soak: failed\n'
    : `soak: passed the held checks${report.unheld.length ? `; ${report.unheld.length} goals not reached (above)` : ''}\n`,
);
process.exit(report.failures.length ? 1 : 0);
