import { spawn } from 'node:child_process';
import type { Command } from './isolation.ts';

/**
 * Runs ansible-playbook (an argument list, never a shell string) and reads what our callback
 * plugin (plugins/gatehouse_jsonl.py) writes: one JSON event a line on stdout. Other lines (Ansible's
 * own errors and warnings, on either stream) come back as text. The process leads its own process
 * group: the deadline or the abort signal kills the whole group.
 */

export type AnsibleEvent =
  | { e: 'task'; task: string }
  | {
      e: 'result';
      host: string;
      task: string;
      status: 'ok' | 'changed' | 'failed' | 'ignored' | 'unreachable' | 'skipped';
      stdout: string;
      stderr: string;
      msg: string;
      rc: number | null;
    }
  | { e: 'stats'; hosts: Record<string, { ok: number; failures: number; unreachable: number; skipped: number }> }
  | { e: 'warning'; msg: string };

export interface ProcessOptions {
  command: Command;
  cwd: string;
  env: Record<string, string>;
  /** Kills the group after this many ms. */
  deadlineMs?: number;
  signal?: AbortSignal;
  onEvent(ev: AnsibleEvent): void;
  onText(line: string): void;
}

export interface ProcessEnd {
  exitCode: number | null;
  /** Why the group was killed, if it was. */
  killed?: 'deadline' | 'aborted';
}

const MAX_LINE = 1024 * 1024;

function lineReader(onLine: (line: string) => void): { push(chunk: Buffer): void; end(): void } {
  let buf = '';
  return {
    push(chunk) {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
      if (buf.length > MAX_LINE) {
        onLine(buf);
        buf = '';
      }
    },
    end() {
      if (buf) onLine(buf);
      buf = '';
    },
  };
}

export function runAnsibleProcess(o: ProcessOptions): Promise<ProcessEnd> {
  return new Promise((resolve) => {
    const child = spawn(o.command.command, o.command.args, {
      cwd: o.cwd,
      env: o.env,
      uid: o.command.uid,
      gid: o.command.gid,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let killed: ProcessEnd['killed'];
    let done = false;
    const kill = (why: NonNullable<ProcessEnd['killed']>) => {
      if (done || killed) return;
      killed = why;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = o.deadlineMs ? setTimeout(() => kill('deadline'), o.deadlineMs) : undefined;
    const onAbort = () => kill('aborted');
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted) onAbort();
    const out = lineReader((line) => {
      if (line.startsWith('{')) {
        try {
          const ev = JSON.parse(line) as AnsibleEvent;
          if (ev && typeof ev === 'object' && 'e' in ev) return o.onEvent(ev);
        } catch {
          // not one of ours: text
        }
      }
      if (line.trim()) o.onText(line);
    });
    const err = lineReader((line) => line.trim() && o.onText(line));
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const finish = (exitCode: number | null) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      out.end();
      err.end();
      resolve({ exitCode, killed });
    };
    child.on('error', (e) => {
      o.onText(`ansible-playbook could not start: ${e.message}`);
      finish(null);
    });
    child.on('close', (code) => finish(code));
    // A killed group's stray descendants may hold the pipes open: do not wait for them.
    child.on('exit', (code) => {
      if (killed) setTimeout(() => finish(code), 1000).unref();
    });
  });
}
