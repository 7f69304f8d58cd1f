import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The real entry point, as `npm start` runs it. */
const TSX = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
const MAIN = path.resolve(import.meta.dirname, 'main.ts');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cli-'));
  dirs.push(d);
  return d;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(env: Record<string, string>, untilStdout?: RegExp, timeoutMs = 90_000): Promise<Run & { kill(): void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [MAIN, 'start'], {
      env: { ...process.env, LOG_LEVEL: 'silent', GATEHOUSE_SSH_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out; stdout=${stdout} stderr=${stderr}`));
    }, timeoutMs);
    const kill = () => child.kill('SIGTERM');
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (untilStdout?.test(stdout)) {
        clearTimeout(timer);
        resolve({ code: null, stdout, stderr, kill });
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, kill });
    });
  });
}

// Each case starts the whole server in a process of its own: slow on a loaded 2-core machine.
describe('gatehouse start', { timeout: 200_000 }, () => {
  it.each([
    [{ PORT: 'abc' }, /^gatehouse: PORT: "abc" is not a number/],
    [{ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, /^gatehouse: DATABASE_URL: cannot connect to PostgreSQL/],
    [{ REDIS_URL: 'redis://127.0.0.1:1' }, /^gatehouse: REDIS_URL: cannot reach Redis/],
  ])('stops with one line naming the bad setting: %o', async (env, line) => {
    const r = await run({ DATA_DIR: tmp(), ...env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(line);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('creates the admin with a generated password, prints it once, and serves the API', async () => {
    const dataDir = tmp();
    const first = await run({ DATA_DIR: dataDir, PORT: '0' }, /serving on (http:\/\/\S+)/);
    const url = /serving on (http:\/\/\S+)/.exec(first.stdout)![1]!;
    const password = /password\s+(\S+)/.exec(first.stdout)![1]!;
    expect(fs.readFileSync(path.join(dataDir, 'initial-admin-password.txt'), 'utf8').trim()).toBe(password);
    const health = await fetch(new URL('/api/health/', url));
    expect(((await health.json()) as { status: boolean }).status).toBe(true);
    const token = await fetch(new URL('/api/v1/authentication/auth/', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(token.status).toBe(201);
    first.kill();
    await new Promise((r) => setTimeout(r, 300));
    const second = await run({ DATA_DIR: dataDir, PORT: '0' }, /serving on/);
    expect(second.stdout).not.toMatch(/password/);
    second.kill();
  });

  it('says when the port is taken', async () => {
    const dataDir = tmp();
    const first = await run({ DATA_DIR: dataDir, PORT: '0' }, /serving on/);
    const port = /:(\d+)\//.exec(first.stdout)![1]!;
    const second = await run({ DATA_DIR: tmp(), PORT: port });
    first.kill();
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`^gatehouse: PORT: ${port} is already in use`));
  });

  it('stops with one line when the native SSH port is taken, instead of running without SSH', async () => {
    const taken = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const r = await run({ DATA_DIR: tmp(), PORT: '0', GATEHOUSE_SSH_PORT: String(port) });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`^gatehouse: GATEHOUSE_SSH_PORT: ${port} is already in use`));
      expect(r.stdout).not.toMatch(/serving on/);
    } finally {
      taken.close();
    }
  });
});
