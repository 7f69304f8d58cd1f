import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** A real Gatehouse process (the same entry `npm start` runs) on a free loopback port, with its own data dir. */
export interface RunningServer {
  url: string;
  dataDir: string;
  /** Straight into the server's SQLite file (set-up a test cannot make through the API). */
  withDatabase(run: (db: SQLite.Database) => void): void;
  stop(): Promise<void>;
}

export const E2E_ADMIN_PASSWORD = 'E2e-Admin-pass1';
const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Starts a server. The seeded admin skips the first-login page unless `env` sets
 * `GATEHOUSE_ADMIN_FIRST_LOGIN: '1'` (so `signIn()` lands in the console).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-'));
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'apps/server/src/main.ts'), 'start'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      GATEHOUSE_SSH_PORT: '0',
      DATA_DIR: dataDir,
      GATEHOUSE_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      GATEHOUSE_ADMIN_FIRST_LOGIN: '0',
      LOG_LEVEL: 'warn',
      // The server closes a kept-alive connection idle for this long (10 s by default). Playwright's
      // API client (Node's http agent) reuses a pooled socket without retrying when the server
      // closes it just as a request goes out (ECONNRESET on a busy machine); browsers retry those.
      HTTP_KEEPALIVE_TIMEOUT_MS: '300000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /serving on (http:\/\/\S+?)\/?\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return {
    url,
    dataDir,
    withDatabase(run) {
      const db = new SQLite(path.join(dataDir, 'gatehouse.sqlite'));
      try {
        run(db);
      } finally {
        db.close();
      }
    },
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
