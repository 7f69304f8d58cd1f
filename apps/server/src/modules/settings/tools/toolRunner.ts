import { spawn } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';
import type { ToolPlan } from './toolParams.ts';

/**
 * Runs a checked tool plan (toolParams.ts) and hands its output over line by line: programs are
 * spawned with an argument list and no shell, with a fixed PATH and the C locale, stdout and
 * stderr read as lines; the whole run is bounded by the plan's time and MAX_LINES, and `stop()`
 * (the socket closed) kills the program at once. Telnet is a TCP connection made here: it says
 * whether the port answers and shows what the service sends first.
 */
export const MAX_LINES = 5000;
const ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C', LC_ALL: 'C' };

export interface ToolRun {
  done: Promise<void>;
  stop(): void;
}

export function runTool(plan: ToolPlan, line: (text: string) => void): ToolRun {
  let stopped = false;
  let lines = 0;
  const emit = (text: string) => {
    if (stopped || lines >= MAX_LINES) return;
    lines++;
    line(text);
    if (lines === MAX_LINES) line(`... (output stopped after ${MAX_LINES} lines)`);
  };
  const stoppers = new Set<() => void>();
  const deadline = setTimeout(() => {
    emit('... (time limit reached)');
    stop();
  }, plan.timeoutMs);
  const stop = () => {
    stopped = true;
    for (const s of stoppers) s();
  };

  const exec = (program: string, args: string[]) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const child = spawn(program, args, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'], shell: false });
      const kill = () => child.kill('SIGKILL');
      stoppers.add(kill);
      for (const stream of [child.stdout, child.stderr])
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', emit);
      child.on('error', (e) => emit(`${program}: ${e.message}`));
      child.on('close', () => {
        stoppers.delete(kill);
        resolve();
      });
    });

  const telnet = (host: string, port: number) =>
    new Promise<void>((resolve) => {
      emit(`Trying ${host} port ${port}...`);
      const socket = net.connect({ host, port, timeout: plan.timeoutMs });
      const end = () => {
        socket.destroy();
        resolve();
      };
      stoppers.add(end);
      socket.once('connect', () => {
        emit(`Connected to ${host} (${socket.remoteAddress}) port ${port}.`);
        // What the service says first (a banner), for a moment; many say nothing until asked.
        setTimeout(end, Math.min(2000, plan.timeoutMs)).unref();
      });
      socket.setEncoding('utf8');
      let rest = '';
      socket.on('data', (d: string) => {
        const parts = (rest + d).split(/\r?\n/);
        rest = parts.pop() ?? '';
        parts.forEach(emit);
      });
      socket.once('timeout', () => {
        emit(`Connection to ${host} port ${port} timed out.`);
        end();
      });
      socket.once('error', (e) => {
        emit(`Unable to connect to ${host} port ${port}: ${e.message}`);
        end();
      });
      socket.once('close', () => {
        if (rest) emit(rest);
        resolve();
      });
    });

  const done = (async () => {
    try {
      if (plan.kind === 'telnet') await telnet(plan.host, plan.port);
      else for (const r of plan.runs) await exec(r.program, r.args);
    } finally {
      clearTimeout(deadline);
      stoppers.clear();
    }
  })();
  return { done, stop };
}
