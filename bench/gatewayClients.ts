import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'ssh2';
import WebSocket from 'ws';
import { WEB_TERMINAL_SOCKET_PATH } from '../apps/server/src/modules/terminal/webTerminalSocket.ts';

/**
 * The two ends the gateway benchmark compares: a page's web terminal (WebSocket to the server,
 * which relays to the asset's sshd through ssh2) and ssh2 straight to the same sshd; both give a
 * terminal that takes keys and hands its output to a listener. And the server itself, in a child
 * process (its CPU time and memory are its own; `main.ts`, as an operator starts it).
 */
export interface BenchTerminal {
  write(keys: string): void;
  /** The listener gets every piece of output (replaces the previous listener). */
  onOutput(fn: (text: string) => void): void;
  close(): Promise<void>;
}

const COLS = 80;
const ROWS = 24;

/** A web terminal page: spends the token, waits for CONNECT. */
export function openWebTerminal(base: string, token: string): Promise<BenchTerminal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(
      `${base.replace('http', 'ws')}${WEB_TERMINAL_SOCKET_PATH}?token=${token}&cols=${COLS}&rows=${ROWS}`,
    );
    let listener: ((text: string) => void) | undefined;
    // Output that comes before a listener (even in the same read as CONNECT) waits for it.
    const early: string[] = [];
    const closed = new Promise<void>((r) => ws.once('close', () => r()));
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { type: string; data?: string; err?: string };
      if (m.type === 'TERMINAL_DATA') {
        if (listener) listener(m.data!);
        else early.push(m.data!);
      } else if (m.type === 'CONNECT') {
        resolve({
          write: (keys) => ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: keys })),
          onOutput(fn) {
            listener = fn;
            for (const t of early.splice(0)) fn(t);
          },
          async close() {
            ws.close(1000);
            await closed;
          },
        });
      } else if (m.type === 'TERMINAL_ERROR') reject(new Error(`web terminal: ${m.err}`));
    });
    ws.once('error', reject);
  });
}

/** ssh2 straight to the sshd, a shell with a PTY of the same size. */
export function openDirectTerminal(sshd: { port: number; username: string; password: string }): Promise<BenchTerminal> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once('error', reject);
    client.once('ready', () =>
      client.shell({ term: 'xterm-256color', cols: COLS, rows: ROWS }, (err, ch) => {
        if (err) return reject(err);
        let listener: (text: string) => void = () => {};
        const early: string[] = [];
        let attached = false;
        ch.setEncoding('utf8');
        ch.on('data', (t: string) => (attached ? listener(t) : early.push(t)));
        const closed = new Promise<void>((r) => client.once('close', () => r()));
        resolve({
          write: (keys) => ch.write(keys),
          onOutput(fn) {
            listener = fn;
            attached = true;
            for (const t of early.splice(0)) fn(t);
          },
          async close() {
            client.end();
            await closed;
          },
        });
      }),
    );
    client.connect({
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.username,
      password: sshd.password,
      readyTimeout: 60_000,
    });
  });
}

/** Runs `fn` on every item, `limit` at a time (sessions open a few at a time, as people arrive). */
export async function inBatches<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/** The server of `apps/server/src/main.ts` in a child process on a free loopback port. */
export interface ServerProcess {
  base: string;
  pid: number;
  /** CPU seconds (user + system) used so far, from /proc. */
  cpuSeconds(): number;
  /** Resident memory now, MiB. */
  rssMb(): number;
  stop(): Promise<void>;
}

const TICKS = 100; // USER_HZ on Linux

export async function startServerProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const root = path.resolve(import.meta.dirname, '..');
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
    {
      cwd: root,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', GATEHOUSE_SSH_PORT: '0', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (s: string) => {
      out += s;
      const m = /serving on (http:\/\/[^/\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${out}`)));
  });
  const pid = child.pid!;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    base,
    pid,
    cpuSeconds() {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(f[11]) + Number(f[12])) / TICKS;
    },
    rssMb() {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      return Number(m?.[1] ?? 0) / 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
