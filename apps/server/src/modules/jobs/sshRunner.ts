import { setMaxListeners } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import type { FastifyInstance } from 'fastify';
import type { HostResult, Runner, RunnerConnection, RunnerHost, RunnerPlan } from '../ops/engine/runner.ts';
import { SSH_MODULES } from '../ops/engine/runner.ts';
import { openSsh, type SshLink } from '../terminal/gateway/sshConnect.ts';
import type { Hop } from '../terminal/gateway/sshTarget.ts';
import { inParallel, withinLimits } from './hostLimits.ts';

/**
 * The gateway's own SSH runner for `shell` and `raw`: one SSH exec per host over the same
 * connection path as the web terminal (`terminal/gateway/sshConnect.ts`: host keys trusted on first
 * use, domain gateways through `forwardOut`), no Python or Ansible on either side, so a command
 * over many hosts costs one SSH handshake per host (docs/ops.md says why). Output is read line by
 * line as it comes; the host's time limit covers the connection too, so a host that never answers
 * ends `timeout` on its own.
 */
const KEEP = 64 * 1024;

export function hopOf(assetId: string, c: Omit<RunnerConnection, 'gateway'>): Hop {
  return {
    assetId,
    host: c.host,
    port: c.port,
    credentials: {
      username: c.username,
      ...(c.password !== undefined ? { password: c.password } : {}),
      ...(c.privateKey !== undefined ? { privateKey: c.privateKey } : {}),
      ...(c.passphrase ? { passphrase: c.passphrase } : {}),
    },
  };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The command line a host runs: `raw` as given, `shell` in `chdir` when set. */
export function commandLine(module: string, args: string, chdir: string): string {
  if (module === 'raw' || !chdir) return args;
  return `cd ${quote(chdir)} && ${args}`;
}

/** Replaces `{{ name }}` by the execution's variables (unknown names stay as written). */
export function withVariables(args: string, vars: Record<string, string>): string {
  return args.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (m, name: string) => (name in vars ? vars[name]! : m));
}

class Lines {
  private decoder = new StringDecoder('utf8');
  private rest = '';
  kept = '';
  constructor(private readonly emit: (line: string) => void) {}
  push(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    this.kept = (this.kept + text).slice(-KEEP);
    const parts = (this.rest + text).split(/\r?\n/);
    this.rest = parts.pop()!;
    for (const p of parts) this.emit(p);
  }
  end(): void {
    const last = this.rest + this.decoder.end();
    if (last) this.emit(last);
    this.rest = '';
  }
}

async function runHost(app: FastifyInstance, plan: RunnerPlan, host: RunnerHost): Promise<HostResult> {
  const started = Date.now();
  const work = plan.work;
  const args = work.kind === 'module' ? withVariables(work.args, plan.variables) : '';
  const cmd = commandLine(work.kind === 'module' ? work.module : 'shell', args, plan.chdir);
  const lines = new Lines((l) => plan.output(host.assetId, l));
  const done = (status: HostResult['status'], reason: string, exitCode?: number): HostResult => {
    lines.end();
    return {
      assetId: host.assetId,
      status,
      reason,
      output: lines.kept,
      ...(exitCode !== undefined ? { exitCode } : {}),
      timeCost: (Date.now() - started) / 1000,
    };
  };
  let link: SshLink | undefined;
  let finished = false;
  const run = (async (): Promise<HostResult> => {
    const { gateway, ...target } = host.connection;
    link = await openSsh(
      app.deps.database.db,
      'en',
      hopOf(host.assetId, target),
      gateway ? hopOf(gateway.assetId, gateway) : undefined,
    );
    if (finished) {
      link.end();
      return done('failed', 'stopped');
    }
    const client = link.client;
    return new Promise<HostResult>((resolve) => {
      client.exec(cmd, (err, ch) => {
        if (err) return resolve(done('failed', err.message));
        ch.on('data', (d: Buffer) => lines.push(d));
        ch.stderr.on('data', (d: Buffer) => lines.push(d));
        ch.on('close', (code: number | null, signal?: string) => {
          if (code === 0) resolve(done('ok', '', 0));
          else if (code !== null && code !== undefined) resolve(done('failed', `exit code ${code}`, code));
          else resolve(done('failed', signal ? `ended by signal ${signal}` : 'connection closed'));
        });
      });
      client.once('close', () => resolve(done('failed', 'connection closed')));
    });
  })().catch((e: Error) => done('failed', e.message));
  return withinLimits(plan, run, done, () => {
    finished = true;
    link?.end();
  });
}

export function sshRunner(app: FastifyInstance): Runner {
  return {
    name: 'ssh',
    async available(work) {
      return work.kind === 'module' && (SSH_MODULES as readonly string[]).includes(work.module)
        ? { ok: true }
        : { ok: false, reason: 'the gateway SSH runner runs the shell and raw modules only' };
    },
    run(plan) {
      // One abort listener per host running at once.
      setMaxListeners(plan.parallel + 10, plan.signal);
      return inParallel(plan.hosts, plan.parallel, (h) => runHost(app, plan, h));
    },
  };
}
